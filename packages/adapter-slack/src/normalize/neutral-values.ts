import type { PostedMessage } from '@rt/core';
import type { SlackAction, SlackInteractive } from '../parse/payload-types.js';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

interface StateValue {
  readonly type?: unknown;
  readonly value?: unknown;
  readonly selected_option?: { readonly value?: unknown } | null;
  readonly selected_options?: readonly { readonly value?: unknown }[] | null;
}

function valueOfState(entry: StateValue): string {
  if (typeof entry.value === 'string') return entry.value;
  const selected = entry.selected_option?.value;
  if (typeof selected === 'string') return selected;
  const first = Array.isArray(entry.selected_options)
    ? entry.selected_options[0]?.value
    : undefined;
  return typeof first === 'string' ? first : '';
}

/**
 * `event.value` of a `block_actions`: the button's `value`, else the chosen option's value (the
 * first of several). `undefined` when the action carries neither.
 */
export function actionValueOf(action: SlackAction | undefined): string | undefined {
  if (action === undefined) return undefined;
  if (typeof action.value === 'string') return action.value;
  const entry = action as StateValue;
  const value = valueOfState(entry);
  return value.length > 0 ? value : undefined;
}

/** The message a `block_actions` came from, as `event.message`. */
export function actionMessageOf(payload: SlackInteractive): PostedMessage | undefined {
  const channel = text(payload.channel?.id) ?? text(payload.container?.channel_id);
  const id = text(payload.message?.ts) ?? text(payload.container?.message_ts);
  if (channel === undefined || id === undefined) return undefined;
  const thread = text(payload.message?.thread_ts) ?? text(payload.container?.thread_ts);
  return thread === undefined ? { channel, id } : { channel, id, thread };
}

/**
 * `event.values` of a `view_submission`: every input's value by its action id (a neutral form
 * uses the field id for both block and action ids): text as typed (`''` when empty), a select's
 * chosen value (`''` when none). Malformed state is skipped, never thrown on.
 */
export function formValuesOf(payload: SlackInteractive): Readonly<Record<string, string>> {
  const values: Record<string, string> = {};
  const state = (payload.view as { state?: { values?: unknown } } | undefined)?.state?.values;
  if (typeof state !== 'object' || state === null) return values;
  for (const block of Object.values(state as Record<string, unknown>)) {
    if (typeof block !== 'object' || block === null) continue;
    for (const [actionId, entry] of Object.entries(block as Record<string, unknown>)) {
      if (typeof entry === 'object' && entry !== null) {
        values[actionId] = valueOfState(entry as StateValue);
      }
    }
  }
  return values;
}
