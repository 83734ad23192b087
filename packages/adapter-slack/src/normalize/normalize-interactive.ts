import { randomUUID } from 'node:crypto';
import type { EventKind, RtEvent } from '@rt/core';
import { SlackRequestError } from '../errors.js';
import type { SlackAction, SlackInteractive } from '../parse/payload-types.js';
import { BUSY_OPTION_VALUE, busyOptionTarget } from '../respond/busy-surfaces.js';
import type { SlackShape } from '../shapes.js';
import { installationOfInteractive, tenantOf } from './installation.js';
import { actionMessageOf, actionValueOf, formValuesOf } from './neutral-values.js';
import { type NormalizeContext, type Normalized, textOf } from './normalized.js';

/**
 * Lifetime of a `block_suggestion`'s dedupe mark: Slack's 3 s answer window, after which the
 * request is dead. Its id is unique per receipt, so the mark never dedupes anything; it is still
 * taken (not skipped with `dedupeTtlMs: 0`) so a State outage answers "unavailable" like every
 * other shape instead of running the handler unmarked.
 */
export const SUGGESTION_DEDUPE_TTL_MS = 3000;

const KINDS: Readonly<Record<string, EventKind>> = {
  block_actions: 'action',
  message_action: 'shortcut',
  shortcut: 'shortcut',
  view_submission: 'form_submit',
  view_closed: 'form_close',
  block_suggestion: 'suggestion',
};

/**
 * A stable id for a direct invocation. `trigger_id` is unique per user gesture; views without one
 * use `view.id` + `view.hash`. `block_suggestion` carries neither a trigger nor a per-keystroke id
 * and is never redelivered, while typing the same query twice is two real requests: each receipt
 * gets its own id so no dedupe mark can swallow a keystroke, and its mark lives only
 * `SUGGESTION_DEDUPE_TTL_MS` (a mark per keystroke kept for the default hour would only fill the
 * State).
 */
function idOf(payload: SlackInteractive): string | undefined {
  if (payload.type === 'block_suggestion') {
    const where = textOf(payload.view?.id) ?? textOf(payload.container?.message_ts) ?? 'message';
    return `suggestion:${where}:${textOf(payload.action_id) ?? ''}:${randomUUID()}`;
  }
  const trigger = textOf(payload.trigger_id);
  if (trigger !== undefined) return trigger;
  const viewId = textOf(payload.view?.id);
  if (viewId !== undefined) return `view:${viewId}:${textOf(payload.view?.hash) ?? ''}`;
  return undefined;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Sets the kind-specific id on `event`: a shortcut's callback id, or a form's (view's). */
function addKindId(event: Mutable<RtEvent>, payload: SlackInteractive): void {
  if (payload.type === 'shortcut' || payload.type === 'message_action') {
    const shortcutId = textOf(payload.callback_id);
    if (shortcutId !== undefined) event.shortcutId = shortcutId;
  } else if (payload.type === 'view_submission' || payload.type === 'view_closed') {
    const formId = textOf(payload.view?.callback_id);
    if (formId !== undefined) event.formId = formId;
  }
}

/**
 * The payload's actions, checked: absent is none; anything but an array of objects is a malformed
 * payload (`SlackRequestError`, answered 400 over HTTP), never a `TypeError` from deeper down.
 */
function actionsOf(payload: SlackInteractive): readonly SlackAction[] {
  const actions: unknown = payload.actions;
  if (actions === undefined || actions === null) return [];
  if (
    !Array.isArray(actions) ||
    actions.some((action) => typeof action !== 'object' || action === null)
  ) {
    throw new SlackRequestError(`${String(payload.type)} actions must be an array of objects`);
  }
  return actions as readonly SlackAction[];
}

function choseBusyOption(payload: SlackInteractive): boolean {
  return actionsOf(payload).some(
    (action) =>
      action.selected_option?.value === BUSY_OPTION_VALUE ||
      (Array.isArray(action.selected_options) &&
        action.selected_options.some(
          (option: { value?: unknown }) => option?.value === BUSY_OPTION_VALUE,
        )),
  );
}

/** The neutral id of an `action_id`: a repeated id rendered as `id|n` (block-kit.ts) is `id`. */
function neutralActionId(actionId: string | undefined): string | undefined {
  return actionId?.replace(/(.)\|\d+$/, '$1');
}

/** Sets `value` and `message` of an action, `values` of a form submit (docs/messages.md). */
function addNeutralFields(
  event: Mutable<RtEvent>,
  shape: SlackShape,
  payload: SlackInteractive,
  action: SlackAction | undefined,
): void {
  if (shape === 'view_submission') {
    event.values = formValuesOf(payload);
    return;
  }
  if (shape !== 'block_actions') return;
  const value = actionValueOf(action);
  if (value !== undefined) event.value = value;
  const message = actionMessageOf(payload);
  if (message !== undefined) event.message = message;
}

/**
 * Normalises an interactive payload (docs/events.md): `block_actions` → `action` (first action's
 * id), `message_action` and `shortcut` → `shortcut` (`shortcutId` = its callback id),
 * `view_submission` → `form_submit` and `view_closed` → `form_close` (`formId` = the view's
 * callback id), `block_suggestion` → `suggestion` (`actionId` = the field, text = the typed query; a 3 s
 * dedupe mark). Channel and thread come from the originating message when there is one. Choices of the busy placeholder option are never
 * dispatched. Throws `SlackRequestError` for a payload without a tenant or an id.
 */
export function normalizeInteractive(payload: SlackInteractive, ctx: NormalizeContext): Normalized {
  const kind = KINDS[payload.type];
  if (kind === undefined) {
    throw new SlackRequestError(`unknown interactive payload type ${JSON.stringify(payload.type)}`);
  }
  const shape = payload.type as SlackShape;
  if (shape === 'block_actions' && choseBusyOption(payload)) {
    return { type: 'ignore', reason: 'busy placeholder option chosen' };
  }
  if (shape === 'view_submission') {
    const target = busyOptionTarget(payload.view);
    if (target !== undefined) return { type: 'busy-option', blockId: target.blockId };
  }
  const tenant = tenantOf(installationOfInteractive(payload));
  if (tenant === undefined) throw new SlackRequestError(`${shape} names no team or enterprise`);
  const id = idOf(payload);
  if (id === undefined) throw new SlackRequestError(`${shape} has no trigger_id or view id`);
  const firstAction = actionsOf(payload)[0];
  const messageTs = textOf(payload.message?.ts) ?? textOf(payload.container?.message_ts);
  const threadTs = textOf(payload.message?.thread_ts) ?? textOf(payload.container?.thread_ts);
  // One literal of a fixed shape (no spreads), then the fields each shape may add.
  const event: Mutable<RtEvent> = {
    adapter: ctx.adapter,
    tenant,
    id,
    kind,
    shape,
    type: shape,
    channel: textOf(payload.channel?.id) ?? textOf(payload.container?.channel_id),
    thread: threadTs ?? messageTs,
    user: textOf(payload.user?.id),
    text:
      shape === 'block_suggestion'
        ? (payload.value ?? '')
        : shape === 'block_actions'
          ? textOf(firstAction?.value)
          : undefined,
    actionId: neutralActionId(textOf(firstAction?.action_id) ?? textOf(payload.action_id)),
    retry: ctx.retry,
    receivedAt: ctx.receivedAt,
    payload,
  };
  addKindId(event, payload);
  addNeutralFields(event, shape, payload, firstAction);
  if (shape === 'block_suggestion') event.dedupeTtlMs = SUGGESTION_DEDUPE_TTL_MS;
  return { type: 'event', event };
}
