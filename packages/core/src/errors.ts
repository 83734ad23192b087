/**
 * Every error @rt/core throws or hands to a handler's abort signal. Each class carries a stable,
 * readonly string `code` so callers can branch without `instanceof` across package copies, and
 * passes `cause` through unchanged.
 */

/** Base class of every rt error. `code` is stable across releases. */
export class RtError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * Sets `Error.stackTraceLimit` to 0 so the next error captures no frames; false (and nothing
 * changed) where it cannot be written (frozen intrinsics): that error then keeps its stack.
 */
function lowerStackTraceLimit(): boolean {
  try {
    Error.stackTraceLimit = 0;
    return true;
  } catch {
    return false;
  }
}

/** Why a delivery was refused before acceptance. */
export type AdmissionRejectionReason = 'capacity' | 'tenant-capacity' | 'shutdown';

/**
 * The delivery was refused before it was acknowledged or dedupe-marked: the bound is full
 * (`capacity`), the installation's ceiling is reached (`tenant-capacity`), or shutdown has started
 * (`shutdown`). Nothing was marked, so a platform retry of the same event is not a duplicate.
 * Adapters map it to a shape-aware platform response.
 *
 * A refusal is an answer, not a bug: it is built without a stack trace (its `stack` is its name
 * and message, no frames), because capturing one per refused delivery was the largest single cost
 * of refusing under a flood (where the intrinsics are frozen it keeps its stack). It is still a
 * native `Error` of this class, with its `code`, `reason`, `adapter` and `tenant`.
 */
export class AdmissionRejectedError extends RtError {
  readonly reason: AdmissionRejectionReason;
  readonly adapter: string;
  readonly tenant: string;

  constructor(reason: AdmissionRejectionReason, adapter: string, tenant: string) {
    // No frames captured (the limit restored even if the superclass threw): see the class comment.
    const stackTraceLimit = Error.stackTraceLimit;
    const lowered = lowerStackTraceLimit();
    try {
      super(
        'RT_ADMISSION_REJECTED',
        `delivery rejected (${reason}) for adapter "${adapter}", tenant "${tenant}"`,
      );
    } finally {
      if (lowered) Error.stackTraceLimit = stackTraceLimit;
    }
    this.reason = reason;
    this.adapter = adapter;
    this.tenant = tenant;
  }
}

/**
 * The synchronous prelude failed: the State could not mark the event, or the `lockScope` function
 * threw or returned no key. Nothing was marked and no admission slot is held; the adapter must
 * answer with a retry-inducing failure, never as handled. The State's or the scope function's
 * error is the `cause`.
 */
export class PreludeError extends RtError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_PRELUDE', message, options);
  }
}

/**
 * Abort reason when the Thread Lock's lease was lost (renewal returned false, kept failing past
 * expiry, or the lease expired) while the handler ran. Outcome: `preempted`.
 */
export class PreemptedError extends RtError {
  readonly lockKey: string;

  constructor(lockKey: string, detail: string, options?: { cause?: unknown }) {
    super('RT_PREEMPTED', `lease on "${lockKey}" lost: ${detail}`, options);
    this.lockKey = lockKey;
  }
}

/** Abort reason when shutdown's grace period ended before the handler settled. Outcome: `shutdown`. */
export class ShutdownError extends RtError {
  constructor(message = 'runtime shut down before the handler settled') {
    super('RT_SHUTDOWN', message);
  }
}

/** Abort reason when a deferred delivery outlived `detachTimeoutMs`. Outcome: `timed-out`. */
export class DetachTimeoutError extends RtError {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super('RT_DETACH_TIMEOUT', `detached work exceeded detachTimeoutMs (${timeoutMs} ms)`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * `ctx.stream` was called on an adapter without the optional `StreamReplier` capability. Nothing
 * was posted and the source was not read.
 */
export class StreamUnsupportedError extends RtError {
  readonly adapter: string;

  constructor(adapter: string) {
    super('RT_STREAM_UNSUPPORTED', `adapter "${adapter}" cannot stream replies`);
    this.adapter = adapter;
  }
}

/**
 * A streamed reply stopped because its signal aborted: the source was cancelled (its iterator's
 * `return()`), what had arrived was written, followed by the interrupted marker. `cause` is the
 * signal's reason; `posted` says where the reply (its last message) landed.
 */
export class StreamInterruptedError extends RtError {
  /** Where the reply landed; `undefined` when the platform never accepted a write. */
  readonly posted:
    | { readonly channel: string; readonly id: string; readonly thread?: string }
    | undefined;

  constructor(posted: StreamInterruptedError['posted'], options: { cause?: unknown }) {
    super('RT_STREAM_INTERRUPTED', 'streamed reply interrupted: its signal aborted', options);
    this.posted = posted;
  }
}

/**
 * Thrown by a `StreamWriter` when the platform answered a write with its rate limit. The stream
 * scheduler waits `retryAfterMs` (at least its minimum interval) and writes the same text again,
 * merged with whatever arrived meanwhile: nothing is lost and nothing is retried in a tight loop.
 */
export class StreamRateLimitedError extends RtError {
  readonly retryAfterMs: number;

  constructor(retryAfterMs: number, options?: { cause?: unknown }) {
    super('RT_STREAM_RATE_LIMITED', `rate limited: retry after ${retryAfterMs} ms`, options);
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * A streamed reply could not be ended within its budget (`finishTimeoutMs` after the source ended
 * or the signal aborted): the platform kept refusing or never answered. The reply may show less
 * than the source gave, without its marker; the `stream_finished` observation says `unfinished`.
 */
export class StreamUnfinishedError extends RtError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_STREAM_UNFINISHED', message, options);
  }
}

/** An adapter handed `dispatch` an event that breaks the event contract (empty tenant, no id, ...). */
export class InvalidEventError extends RtError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_INVALID_EVENT', message, options);
  }
}

/**
 * A State implementation could not reach its store (connection lost, command timed out). State
 * implementations throw it so callers can tell infrastructure failure from a programming error.
 */
export class StateUnavailableError extends RtError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_STATE_UNAVAILABLE', message, options);
  }
}

/**
 * A State operation was called after the State's `close()`. It is a `StateUnavailableError`, so a
 * runtime treats it like any store failure: a prelude error the platform retries, never a delivery
 * acknowledged as handled.
 */
export class StateClosedError extends StateUnavailableError {
  constructor(store: string, operation: string) {
    super(`${store} state is closed: ${operation} called after close()`);
  }
}

/** An HTTP body exceeded the configured size limit. Adapters answer 413. */
export class PayloadTooLargeError extends RtError {
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super('RT_PAYLOAD_TOO_LARGE', `request body exceeds ${limitBytes} bytes`);
    this.limitBytes = limitBytes;
  }
}

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

/** True when `value` is an rt error with the given code (works across duplicated package copies). */
export function hasErrorCode(value: unknown, code: string): boolean {
  return typeof value === 'object' && value !== null && (value as { code?: unknown }).code === code;
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
