import type { PostedMessage } from '../adapter/adapter.js';

/**
 * The normalised event every adapter hands to `runtime.dispatch`. Adapters fill the common fields
 * they can; `payload` keeps the platform's raw payload for handlers that need more.
 */

/**
 * What kind of thing happened, named so one kind fits every platform (a Slack `view_submission` and
 * a Discord modal submit are both `form_submit`). Routing matches on it; `RtEvent.shape` keeps the
 * platform's own name. docs/events.md maps each platform payload to its kind.
 */
export type EventKind =
  | 'message'
  | 'mention'
  | 'command'
  | 'action'
  | 'form_submit'
  | 'form_close'
  | 'shortcut'
  | 'suggestion'
  | 'reaction'
  | 'raw';

/** Retry metadata a platform attached to a redelivery. */
export interface DeliveryRetry {
  /** 1 for the first retry. */
  readonly attempt: number;
  readonly reason?: string;
}

/**
 * One normalised delivery. `(adapter, tenant, id)` is the Event Identity used for dedupe;
 * `(adapter, tenant)` the installation identity used for the per-tenant ceiling.
 */
export interface RtEvent<Payload = unknown> {
  /** Name of the adapter that received it (e.g. `slack`). Non-empty. */
  readonly adapter: string;
  /** Installation key (Slack enterprise or team id, Discord guild id). Non-empty. */
  readonly tenant: string;
  /** The platform's own event id, or a stable id the adapter derived. Non-empty. */
  readonly id: string;
  readonly kind: EventKind;
  /**
   * The platform's own name for the payload shape (Slack `event_callback`, `slash_command`,
   * `block_actions`, `view_submission`...; Discord `application_command`, `modal_submit`...).
   */
  readonly shape: string;
  /** The platform's type of the inner event (e.g. `app_mention`, `reaction_added`). */
  readonly type?: string;
  /** Channel id (for a message in a Discord thread: the thread's parent channel). */
  readonly channel?: string;
  /**
   * Thread id: the root of the conversation this event belongs to, unique within its channel
   * (Slack: the root message's ts; Discord: the thread channel's id).
   */
  readonly thread?: string;
  readonly user?: string;
  /**
   * `true` when the event happened in a direct conversation between one user and the bot (Slack:
   * a message in an `im` channel, `channel_type: 'im'`; Discord: a message outside any guild).
   * Set by the adapters on `message` and `mention` events; absent otherwise (not direct, not a
   * message, or not known). `onDirectMessage` routes on it.
   */
  readonly direct?: boolean;
  readonly text?: string;
  /** Command name without the leading slash, for `command` events. */
  readonly command?: string;
  /**
   * Component id, for `action` events (Slack `action_id`, Discord component `custom_id`) and the
   * field being completed for `suggestion` events.
   */
  readonly actionId?: string;
  /**
   * Form id, for `form_submit` and `form_close` events (Slack view `callback_id`, Discord modal
   * `custom_id`).
   */
  readonly formId?: string;
  /**
   * Shortcut id, for `shortcut` events (Slack shortcut or message action `callback_id`, Discord
   * context-menu command name).
   */
  readonly shortcutId?: string;
  /**
   * `action` events: the clicked button's `value`, or the chosen option's value of a select (the
   * first, when several were chosen). Neutral cards put it there on every platform.
   */
  readonly value?: string;
  /**
   * `form_submit` events: the submitted fields by field id: a text field's text (`''` when left
   * empty), a select's chosen value (`''` when none). The same object on every platform.
   */
  readonly values?: Readonly<Record<string, string>>;
  /** `action` events: the message the button or select was on, when it was on one. */
  readonly message?: PostedMessage;
  /** Set when the platform marked this delivery as a retry. */
  readonly retry?: DeliveryRetry;
  /**
   * Secondary identities of this delivery, as mark keys of its installation built with
   * `installationMarkKey(kind, adapter, tenant, id)` (kind other than `event`: Slack's
   * `message:<adapter>:<tenant>:<channel>:<ts>` for a message it may send under two event ids).
   * With a State offering `MultiKeyMark`, the runtime marks `[primary, ...aliases]` in one atomic
   * step: the delivery is a duplicate when any of them was seen, and a refused or failed delivery
   * leaves none marked. Without it the runtime marks the primary identity alone and says so once
   * (`state_capability_missing`). At most `MAX_MARK_KEYS - 1` distinct keys, each in the event's
   * own installation and none equal to the primary key, else `InvalidEventError`. ADR 0012.
   */
  readonly aliases?: readonly string[];
  /**
   * The kind to route the event as when no route selects it under `kind`: the runtime then
   * dispatches it with `kind` set to this (Slack: the `message` copy of a message that mentions
   * the bot is a `mention` that falls back to `message`, so a bot with only `onMessage` still sees
   * it). Must be a known kind, else `InvalidEventError`. ADR 0012.
   */
  readonly fallbackKind?: EventKind;
  /**
   * Lifetime of this event's dedupe mark in ms, overriding the runtime's `dedupeTtlMs`. `0` marks
   * nothing: for shapes the platform never redelivers whose id is unique per receipt (Slack
   * `block_suggestion`: one per keystroke), so no mark per keystroke is kept for the default hour
   * and the State is not touched. Unset (the default): the runtime's `dedupeTtlMs`. An integer
   * `>= 0`, else `InvalidEventError`.
   */
  readonly dedupeTtlMs?: number;
  /**
   * True when the event is the first message of its own thread (a Slack top-level message, whose
   * `thread` is its own ts): it cannot continue a subscribed conversation, so the runtime's
   * subscription check skips it and makes no State call. docs/conversations.md.
   */
  readonly threadRoot?: boolean;
  /**
   * True when the event says its thread ended (Discord: the thread archived or deleted; Slack: the
   * thread's root message deleted): before routing it, the runtime ends the subscription of
   * `thread` (a State failure there is a prelude error). Needs `thread`. docs/conversations.md.
   */
  readonly endsThread?: boolean;
  /** Epoch milliseconds at which the adapter received it. */
  readonly receivedAt: number;
  /** The platform payload, untouched. Never stored in State. */
  readonly payload: Payload;
}

/** The identifying part of an event, as carried by observations and outcomes. */
export interface EventRef {
  readonly adapter: string;
  readonly tenant: string;
  readonly id: string;
  readonly kind: EventKind;
  readonly shape: string;
}

/** The reference of an event (drops the payload so observations never retain it). */
export function eventRef(event: RtEvent): EventRef {
  return {
    adapter: event.adapter,
    tenant: event.tenant,
    id: event.id,
    kind: event.kind,
    shape: event.shape,
  };
}
