/** The errors of `ctx.stream` (docs/contract.md §10). */
import { RtError } from './rt-error.js';

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
