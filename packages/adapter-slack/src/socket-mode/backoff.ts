/**
 * The wait before reconnect attempt number `failures` (consecutive failures so far): 0 for none,
 * else between half and all of `minMs * 2^(failures - 1)`, capped at `maxMs` (equal jitter, so a
 * fleet that lost Slack at once does not reconnect in lockstep). `random` returns [0, 1).
 */
export function backoffDelay(
  failures: number,
  minMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  if (failures <= 0) return 0;
  const base = Math.min(maxMs, minMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(base / 2 + (base / 2) * random());
}
