/** The errors of the conversation layer: actions, message limits, thread state (docs/contract.md §10). */
import { RtError } from './rt-error.js';

/** A conversation action a handler can call (`ctx.post`, `ctx.openForm`, ...). */
export type ConversationActionName =
  | 'reply'
  | 'post'
  | 'edit'
  | 'delete'
  | 'react'
  | 'unreact'
  | 'ephemeral'
  | 'typing'
  | 'openForm'
  | 'dm'
  | 'showFormErrors';

/**
 * The adapter, or this delivery, cannot do `action`: the platform has no such call (Slack has no
 * typing indicator outside assistant threads), or the delivery lacks what it needs (a form opens
 * only from an interaction inside the platform's trigger window, a Discord ephemeral message only
 * answers an interaction). Thrown before anything is sent. `reason` says which, in words.
 */
export class UnsupportedActionError extends RtError {
  readonly action: ConversationActionName;
  readonly adapter: string;
  readonly reason: string;

  constructor(action: ConversationActionName, adapter: string, reason: string) {
    super('RT_UNSUPPORTED_ACTION', `${action} is not supported by adapter "${adapter}": ${reason}`);
    this.action = action;
    this.adapter = adapter;
    this.reason = reason;
  }
}

/**
 * A message, card or form breaks a documented platform limit (`limit`, e.g. `blocks per message`)
 * at `path` (the offending element, e.g. `card.children[3].elements[0].label`). Thrown by the
 * adapter's renderer before any call: nothing was sent.
 */
export class MessageLimitError extends RtError {
  readonly adapter: string;
  readonly limit: string;
  readonly path: string;
  readonly max: number;
  readonly actual: number;

  constructor(adapter: string, limit: string, path: string, max: number, actual: number) {
    super('RT_MESSAGE_LIMIT', `${path} breaks the ${adapter} limit "${limit}": ${actual} > ${max}`);
    this.adapter = adapter;
    this.limit = limit;
    this.path = path;
    this.max = max;
    this.actual = actual;
  }
}

/**
 * The State lacks an optional capability the caller used (`Subscriptions`, `FencedThreadState`):
 * thrown at use, before any State call, after one `state_capability_missing` observation per
 * runtime and capability.
 */
export class StateCapabilityMissingError extends RtError {
  readonly capability: string;

  constructor(capability: string) {
    super(
      'RT_STATE_CAPABILITY_MISSING',
      `the State does not offer the optional ${capability} capability`,
    );
    this.capability = capability;
  }
}

/** `ctx.thread` was used for an event that belongs to no thread (it has no `thread`). */
export class NotInThreadError extends RtError {
  constructor(operation: string) {
    super('RT_NOT_IN_THREAD', `ctx.thread.${operation}: the event belongs to no thread`);
  }
}

/**
 * The State refused a thread state write: its fence is below the fence of the write the thread's
 * state holds, so the writer lost its Thread Lock and a successor wrote since. Nothing was
 * written; the successor's value stays.
 */
export class StaleFenceError extends RtError {
  readonly fence: number;
  readonly storedFence: number;

  constructor(fence: number, storedFence: number) {
    super(
      'RT_STALE_FENCE',
      `thread state write refused: fence ${fence} is below the stored fence ${storedFence}`,
    );
    this.fence = fence;
    this.storedFence = storedFence;
  }
}

/**
 * A thread state write from a handler that holds no Thread Lock (strategy `concurrent`): it has
 * no fence, so rt refuses it before any State call (docs/conversations.md).
 */
export class UnfencedWriteError extends RtError {
  constructor(operation: string) {
    super(
      'RT_UNFENCED_WRITE',
      `ctx.thread.state.${operation}: the handler holds no Thread Lock (strategy concurrent), ` +
        'so the write would carry no fence',
    );
  }
}

/** A thread state value serialises to more than the bound; refused before any State call. */
export class ThreadStateTooLargeError extends RtError {
  readonly bytes: number;
  readonly limitBytes: number;

  constructor(bytes: number, limitBytes: number) {
    super(
      'RT_THREAD_STATE_TOO_LARGE',
      `thread state takes ${bytes} bytes serialised, more than ${limitBytes}`,
    );
    this.bytes = bytes;
    this.limitBytes = limitBytes;
  }
}

/** A thread state value does not serialise to JSON; refused before any State call. */
export class ThreadStateSerializationError extends RtError {
  constructor(reason: string, options?: { cause?: unknown }) {
    super('RT_THREAD_STATE_UNSERIALIZABLE', `thread state does not serialise: ${reason}`, options);
  }
}

/**
 * `ctx.thread.state.update(fn)` met a concurrent write on every one of its attempts (the read
 * version changed before the write). Nothing of the last attempt was written.
 */
export class ThreadStateConflictError extends RtError {
  readonly attempts: number;

  constructor(attempts: number) {
    super(
      'RT_THREAD_STATE_CONFLICT',
      `thread state update gave up after ${attempts} attempts: it kept changing underneath`,
    );
    this.attempts = attempts;
  }
}
