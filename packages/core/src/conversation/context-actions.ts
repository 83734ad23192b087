import type { Adapter, PostedMessage } from '../adapter/adapter.js';
import { type ConversationActionName, hasErrorCode, UnsupportedActionError } from '../errors.js';
import { eventRef, type RtEvent } from '../event/event.js';
import type { Observation } from '../observe/observation.js';
import type { ConversationActions } from './actions.js';
import { isCard, type Message } from './message.js';

/** Emits one observation; `undefined` when nobody observes (no observation is built). */
export type ActionObserver = ((observation: Observation) => void) | undefined;

function outcomeOf(
  error: unknown,
  signal: AbortSignal,
): 'failed' | 'aborted' | 'unsupported' | 'invalid' {
  if (signal.aborted && error === signal.reason) return 'aborted';
  if (hasErrorCode(error, 'RT_UNSUPPORTED_ACTION')) return 'unsupported';
  if (
    hasErrorCode(error, 'RT_MESSAGE_LIMIT') ||
    error instanceof TypeError ||
    error instanceof RangeError
  ) {
    return 'invalid';
  }
  return 'failed';
}

/**
 * Runs one conversation action of `event`'s handler on `adapter.actions` and observes how it
 * ended (`conversation_action`). An adapter without actions: `reply` of text falls back to
 * `Adapter.reply`; everything else rejects with `UnsupportedActionError`. Rejects with what the
 * action rejected with, unchanged.
 */
export async function runAction<T>(
  adapter: Adapter,
  event: RtEvent,
  observe: ActionObserver,
  action: ConversationActionName,
  signal: AbortSignal,
  call: (actions: ConversationActions) => Promise<T>,
  fallback?: () => Promise<T>,
): Promise<T> {
  const startedAt = observe === undefined ? 0 : Date.now();
  try {
    const actions = adapter.actions;
    let result: T;
    if (actions !== undefined) result = await call(actions);
    else if (fallback !== undefined) result = await fallback();
    else {
      throw new UnsupportedActionError(
        action,
        adapter.name,
        'the adapter implements no conversation actions',
      );
    }
    observe?.(observation(event, action, 'ok', startedAt));
    return result;
  } catch (error) {
    observe?.(observation(event, action, outcomeOf(error, signal), startedAt, error));
    throw error;
  }
}

function observation(
  event: RtEvent,
  action: ConversationActionName,
  outcome: 'ok' | 'failed' | 'aborted' | 'unsupported' | 'invalid',
  startedAt: number,
  error?: unknown,
): Observation {
  const at = Date.now();
  return {
    type: 'conversation_action',
    at,
    event: eventRef(event),
    action,
    outcome,
    durationMs: Math.max(0, at - startedAt),
    ...(error !== undefined ? { error } : {}),
  };
}

/**
 * `ctx.reply` on an adapter without conversation actions: text and `{ text, extra }` go through
 * `Adapter.reply` as before; a card rejects with `UnsupportedActionError`.
 */
export function legacyReply(
  adapter: Adapter,
  event: RtEvent,
  message: Message,
  signal: AbortSignal,
): Promise<PostedMessage> {
  if (isCard(message)) {
    return Promise.reject(
      new UnsupportedActionError('reply', adapter.name, 'the adapter cannot render cards'),
    );
  }
  return adapter.reply(event, typeof message === 'string' ? { text: message } : message, {
    signal,
  });
}
