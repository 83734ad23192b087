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

/** Why a delivery was refused before acceptance. */
export type AdmissionRejectionReason = 'capacity' | 'tenant-capacity' | 'shutdown';

/**
 * The delivery was refused before it was acknowledged or dedupe-marked: the bound is full
 * (`capacity`), the installation's ceiling is reached (`tenant-capacity`), or shutdown has started
 * (`shutdown`). Nothing was marked, so a platform retry of the same event is not a duplicate.
 * Adapters map it to a shape-aware platform response.
 */
export class AdmissionRejectedError extends RtError {
  readonly reason: AdmissionRejectionReason;
  readonly adapter: string;
  readonly tenant: string;

  constructor(reason: AdmissionRejectionReason, adapter: string, tenant: string) {
    super(
      'RT_ADMISSION_REJECTED',
      `delivery rejected (${reason}) for adapter "${adapter}", tenant "${tenant}"`,
    );
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

/** True when `value` is an rt error with the given code (works across duplicated package copies). */
export function hasErrorCode(value: unknown, code: string): boolean {
  return typeof value === 'object' && value !== null && (value as { code?: unknown }).code === code;
}
