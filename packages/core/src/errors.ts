/**
 * Every error @rt/core throws or hands to a handler's abort signal. Each class carries a stable,
 * readonly string `code` so callers can branch without `instanceof` across package copies, and
 * passes `cause` through unchanged. The stream and conversation errors live in their own modules,
 * re-exported here.
 */
import { RtError } from './rt-error.js';

export * from './conversation-errors.js';
export * from './rt-error.js';
export * from './stream-errors.js';

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
