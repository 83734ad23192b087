/**
 * The rejection load generator's one clock: `process.hrtime` (the monotonic clock) in
 * milliseconds. Its pacing thread and its main thread both read it, so a due time computed on one
 * means the same instant on the other (`performance.now()` is per thread, from its own origin).
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
