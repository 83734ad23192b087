/**
 * Options of `createMemoryState` and their frozen defaults.
 */

/** How a memory State keeps time and reclaims expired entries. */
export interface MemoryStateOptions {
  /**
   * The clock, epoch milliseconds. Every expiry decision reads it, so tests can drive TTLs with a
   * fake clock. Default `Date.now`.
   */
  now?: (() => number) | undefined;
  /**
   * How often the background sweeper reclaims expired marks and locks, in milliseconds. The timer
   * is `unref()`ed and only armed while something is scheduled. Also the width of the time
   * buckets marks are reclaimed by (a mark is freed up to this much after its expiry, plus a tick;
   * lookups always use the exact expiry). Default 1000.
   */
  sweepIntervalMs?: number | undefined;
  /**
   * The most expiry checks one sweeper tick performs. When more are due, the next tick follows
   * right away (on a fresh macrotask), so a flood of expiries never blocks the event loop for long.
   * Default 1000.
   */
  sweepBatchSize?: number | undefined;
}

/** `MemoryStateOptions` with every default filled in. */
export interface ResolvedMemoryStateOptions {
  readonly now: () => number;
  readonly sweepIntervalMs: number;
  readonly sweepBatchSize: number;
}

/** The defaults of `createMemoryState`. */
export const DEFAULT_MEMORY_STATE_OPTIONS: ResolvedMemoryStateOptions = Object.freeze({
  now: Date.now,
  sweepIntervalMs: 1000,
  sweepBatchSize: 1000,
});

/** Fills defaults and validates; throws `TypeError`/`RangeError` naming the bad option. */
export function resolveMemoryStateOptions(
  options: MemoryStateOptions = {},
): ResolvedMemoryStateOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('options must be an object');
  }
  const resolved = { ...DEFAULT_MEMORY_STATE_OPTIONS };
  if (options.now !== undefined) {
    if (typeof options.now !== 'function') {
      throw new TypeError('options.now must be a function returning epoch milliseconds');
    }
    resolved.now = options.now;
  }
  if (options.sweepIntervalMs !== undefined) {
    resolved.sweepIntervalMs = positiveInteger(options.sweepIntervalMs, 'sweepIntervalMs');
  }
  if (options.sweepBatchSize !== undefined) {
    resolved.sweepBatchSize = positiveInteger(options.sweepBatchSize, 'sweepBatchSize');
  }
  return Object.freeze(resolved);
}

function positiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number') throw new TypeError(`options.${name} must be a number`);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`options.${name} must be a positive integer, got ${value}`);
  }
  return value;
}
