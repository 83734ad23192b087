/**
 * The normalised event every adapter hands to `runtime.dispatch`. Adapters fill the common fields
 * they can; `payload` keeps the platform's raw payload for handlers that need more.
 */

/** What kind of thing happened, across platforms. Routing matches on it. */
export type EventKind =
  | 'message'
  | 'mention'
  | 'command'
  | 'action'
  | 'shortcut'
  | 'view_submission'
  | 'view_closed'
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
  /** The adapter's name for the payload shape (e.g. `event_callback`, `slash_command`). */
  readonly shape: string;
  /** The platform's type of the inner event (e.g. `app_mention`, `reaction_added`). */
  readonly type?: string;
  readonly channel?: string;
  /** Thread id: the root of the conversation this event belongs to. */
  readonly thread?: string;
  readonly user?: string;
  readonly text?: string;
  /** Command name without the leading slash, for `command` events. */
  readonly command?: string;
  /** Action id, for `action` and `suggestion` events. */
  readonly actionId?: string;
  /** Callback id, for views and shortcuts. */
  readonly callbackId?: string;
  /** Set when the platform marked this delivery as a retry. */
  readonly retry?: DeliveryRetry;
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
