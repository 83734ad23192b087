import { checkNonEmptyText, checkPositiveInteger } from '../option-checks.js';

/**
 * How a streamed reply buffers its source. Text is flushed when `flushChars` are buffered or
 * `flushIntervalMs` after the oldest unwritten character arrived, whichever comes first, but never
 * sooner than the writer's `minIntervalMs` after the previous write.
 */
export interface StreamOptions {
  /** Buffered characters that make a write due at once. Default 400. */
  readonly flushChars?: number;
  /** Ms after which buffered text is written even when fewer than `flushChars`. Default 1000. */
  readonly flushIntervalMs?: number;
  /**
   * Most characters buffered while a write is not yet allowed: past it the scheduler stops pulling
   * the source (backpressure) until a write drains it. Memory per active stream is at most this
   * plus one source chunk, plus the writer's own text (Discord ≤ 2000 characters; Slack's update
   * path the current message). Default 8192.
   */
  readonly maxBufferChars?: number;
  /** Shown at the end of a reply whose signal aborted. Default `\n\n_(interrupted)_`. */
  readonly interruptedMarker?: string;
  /** Shown at the end of a reply whose source threw. Default `\n\n_(error: reply incomplete)_`. */
  readonly errorMarker?: string;
  /** Posted when the source ends without any text. Default `_(no reply)_`. */
  readonly emptyText?: string;
  /**
   * Ms the final writes (rest of the buffer, marker) get once the signal aborted; past it the stream is `unfinished` (`StreamUnfinishedError`). Default 4000:
   * below the runtime's default `shutdownAbandonMs` (5 s), so a stream aborted at the shutdown
   * grace deadline writes its marker before its handler is abandoned.
   */
  readonly finishTimeoutMs?: number;
}

/** Defaults of every `StreamOptions` field. */
export const DEFAULT_STREAM_OPTIONS: Readonly<Required<StreamOptions>> = Object.freeze({
  flushChars: 400,
  flushIntervalMs: 1000,
  maxBufferChars: 8192,
  interruptedMarker: '\n\n_(interrupted)_',
  errorMarker: '\n\n_(error: reply incomplete)_',
  emptyText: '_(no reply)_',
  finishTimeoutMs: 4000,
});

/** `options` over the defaults, validated: `RangeError`/`TypeError` naming the bad option. */
export function resolveStreamOptions(
  options: StreamOptions = {},
): Readonly<Required<StreamOptions>> {
  const resolved = { ...DEFAULT_STREAM_OPTIONS };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
  }
  checkPositiveInteger('flushChars', resolved.flushChars);
  checkPositiveInteger('flushIntervalMs', resolved.flushIntervalMs);
  checkPositiveInteger('maxBufferChars', resolved.maxBufferChars);
  checkPositiveInteger('finishTimeoutMs', resolved.finishTimeoutMs);
  checkNonEmptyText('interruptedMarker', resolved.interruptedMarker);
  checkNonEmptyText('errorMarker', resolved.errorMarker);
  checkNonEmptyText('emptyText', resolved.emptyText);
  if (resolved.maxBufferChars < resolved.flushChars) {
    throw new RangeError(
      `maxBufferChars (${resolved.maxBufferChars}) must be at least flushChars (${resolved.flushChars})`,
    );
  }
  return Object.freeze(resolved);
}
