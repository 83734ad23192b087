import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('reconnects at once when nothing failed', () => {
    expect(backoffDelay(0, 1000, 30_000)).toBe(0);
  });

  it('doubles from the minimum with each failure and never passes the maximum', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, 1000, 30_000, top))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect(backoffDelay(10_000, 1000, 30_000, top)).toBe(30_000);
  });

  it('waits at least half of the step, so jitter never turns into a tight loop', () => {
    expect(backoffDelay(1, 1000, 30_000, () => 0)).toBe(500);
    expect(backoffDelay(9, 1000, 30_000, () => 0)).toBe(15_000);
  });
});
