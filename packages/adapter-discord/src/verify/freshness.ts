/**
 * The freshness window of a signed interaction. A correctly signed request stays correctly signed
 * forever, so without a window a captured interaction replayed after the dedupe TTL would run its
 * handler again. Discord names no window; the default is the life of an interaction token
 * (15 minutes): an interaction older than that could not be answered anyway.
 */

/** Default largest distance between `X-Signature-Timestamp` and the adapter's clock: 15 minutes. */
export const DEFAULT_SIGNATURE_TOLERANCE_MS = 15 * 60 * 1000;

/** Now and the accepted distance, for `isFresh`. */
export interface Freshness {
  /** Now, epoch milliseconds (the adapter's `clock`). */
  readonly nowMs: number;
  /** Largest accepted distance between the timestamp and now, either way, in milliseconds. */
  readonly toleranceMs: number;
}

/**
 * Whether `timestamp` (decimal epoch seconds, already shape-checked) is within `toleranceMs` of
 * `nowMs`, in the past or the future (a sender's clock may run ahead). The boundary is inclusive.
 */
export function isFresh(timestamp: string, { nowMs, toleranceMs }: Freshness): boolean {
  return Math.abs(nowMs - Number(timestamp) * 1000) <= toleranceMs;
}
