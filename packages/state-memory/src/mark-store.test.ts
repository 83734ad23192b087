import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryState, type MemoryState } from './memory-state.js';

const DAY_MS = 86_400_000;

// Marks are bucketed by expiry rounded up to the sweep interval (100 ms here); these start off
// the bucket grid (1,000,050) so a mark's expiry and its bucket's deadline differ.
describe('memory State marks: bucketed expiry, exact lookups', () => {
  let now = 0;
  let state: MemoryState;

  beforeEach(() => {
    vi.useFakeTimers();
    now = 1_000_050;
    state = createMemoryState({ now: () => now, sweepIntervalMs: 100 });
  });

  afterEach(async () => {
    await state.close();
    vi.useRealTimers();
  });

  const advance = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  it('is a duplicate until exactly its expiry, before its bucket is reclaimed', async () => {
    expect(await state.markEvent('e', 120)).toBe(true); // expires 1,000,170; bucket 1,000,200
    advance(119);
    expect(await state.markEvent('e', 120)).toBe(false);
    now += 1; // at its expiry, no sweeper tick in between
    expect(state.stats()).toMatchObject({ marks: 1, scheduled: 1 });
    expect(await state.markEvent('e', 120)).toBe(true);
  });

  it('reclaims a mark within a bucket width and a sweep interval of its expiry', async () => {
    await state.markEvent('e', 120);
    advance(120);
    advance(200);
    expect(state.stats()).toMatchObject({ marks: 0, scheduled: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('moves a mark renewed after expiry to its new bucket, keeping it until its new expiry', async () => {
    await state.markEvent('e', 10);
    now += 10;
    expect(await state.markEvent('e', 1000)).toBe(true); // expires 1,001,060
    advance(300); // its old bucket comes due: requeued, not reclaimed
    expect(state.stats()).toMatchObject({ marks: 1, scheduled: 1 });
    now += 699;
    expect(await state.markEvent('e', 10)).toBe(false);
    advance(201);
    expect(state.stats()).toMatchObject({ marks: 0, scheduled: 0 });
  });

  it('keeps expiries exact far from the State creation and for long TTLs', async () => {
    now += 40 * DAY_MS; // beyond the small-integer range of milliseconds since creation
    expect(await state.markEvent('late', 50)).toBe(true);
    expect(await state.markEvent('long', 30 * DAY_MS)).toBe(true);
    now += 49;
    expect(await state.markEvent('late', 50)).toBe(false);
    now += 1;
    expect(await state.markEvent('late', 50)).toBe(true);
    now += 30 * DAY_MS - 51;
    expect(await state.markEvent('long', 50)).toBe(false);
    now += 1;
    expect(await state.markEvent('long', 50)).toBe(true);
  });

  it('keeps a key built by concatenation equal to itself after storing it', async () => {
    const parts = ['event', 'slack', 'T1', 'Ev1'];
    const key = parts.join(':');
    expect(await state.markEvent(`${parts[0]}:${parts[1]}:${parts[2]}:${parts[3]}`, 100)).toBe(
      true,
    );
    expect(await state.markEvent(key, 100)).toBe(false);
  });
});
