import type { Lease } from '@rt/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryState, type MemoryState } from './memory-state.js';
import type { MemoryStateOptions } from './options.js';

/** A fake clock the State reads, moved together with vitest's fake timers. */
function fakeClock() {
  let now = 1_000_000;
  return {
    now: () => now,
    /** Moves the clock without running timers (no sweeper tick). */
    skip(ms: number) {
      now += ms;
    },
    /** Moves the clock and runs the timers that fall due. */
    advance(ms: number) {
      now += ms;
      vi.advanceTimersByTime(ms);
    },
  };
}

describe('createMemoryState with a fake clock', () => {
  let clock: ReturnType<typeof fakeClock>;
  let state: MemoryState;
  const open = (options: MemoryStateOptions = {}) => {
    state = createMemoryState({ now: clock.now, sweepIntervalMs: 100, ...options });
    return state;
  };

  beforeEach(() => {
    vi.useFakeTimers();
    clock = fakeClock();
  });

  afterEach(async () => {
    await state?.close();
    vi.useRealTimers();
  });

  it('treats a lease as expired exactly at its expiresAt', async () => {
    open();
    const lease = await state.acquireLock('k', 1000);
    expect(lease!.expiresAt).toBe(clock.now() + 1000);
    clock.skip(999);
    expect(await state.acquireLock('k', 1000)).toBeNull();
    clock.skip(1);
    expect(await state.acquireLock('k', 1000)).not.toBeNull();
  });

  it('reclaims an expired mark lazily when the key is marked again', async () => {
    open();
    expect(await state.markEvent('e', 10)).toBe(true);
    clock.skip(10);
    expect(await state.markEvent('e', 10)).toBe(true);
    expect(state.stats()).toMatchObject({ marks: 1, scheduled: 1 });
  });

  it('reclaims a flood of unique expired marks and locks in the background', async () => {
    open({ sweepBatchSize: 10_000 });
    for (let index = 0; index < 5000; index += 1) {
      await state.markEvent(`event-${index}`, 500);
      await state.acquireLock(`lock-${index}`, 500);
    }
    expect(state.stats()).toEqual({
      marks: 5000,
      locks: 5000,
      scheduled: 10_000,
      waiters: 0,
      subscriptions: 0,
      threadStates: 0,
    });
    clock.advance(500);
    expect(state.stats()).toEqual({
      marks: 0,
      locks: 0,
      scheduled: 0,
      waiters: 0,
      subscriptions: 0,
      threadStates: 0,
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does at most sweepBatchSize checks per tick and continues on the next macrotask', async () => {
    open({ sweepBatchSize: 100 });
    for (let index = 0; index < 250; index += 1) await state.markEvent(`e${index}`, 50);
    clock.skip(100);
    vi.advanceTimersToNextTimer();
    expect(state.stats().marks).toBe(150);
    vi.advanceTimersToNextTimer();
    expect(state.stats().marks).toBe(50);
    vi.advanceTimersToNextTimer();
    expect(state.stats().marks).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps a renewed lock through a sweep and reclaims it once it lapses', async () => {
    open();
    const lease = await state.acquireLock('k', 100);
    clock.advance(50);
    expect(await state.renewLock(lease!, 1000)).toBe(true);
    clock.advance(200);
    expect(state.stats().locks).toBe(1);
    expect(await state.acquireLock('k', 100)).toBeNull();
    clock.advance(1000);
    expect(state.stats()).toMatchObject({ locks: 0, scheduled: 0 });
  });

  it('keeps the fence increasing after the key was reclaimed', async () => {
    open();
    const first = await state.acquireLock('k', 100);
    clock.advance(200);
    expect(state.stats().locks).toBe(0);
    const second = await state.acquireLock('k', 100);
    expect(second!.fence).toBeGreaterThan(first!.fence);
  });

  it('forgets a released lock and its queued check at once, disarming an idle sweeper', async () => {
    open();
    const lease = await state.acquireLock('k', 100);
    expect(vi.getTimerCount()).toBe(1);
    await state.releaseLock(lease!);
    expect(state.stats()).toMatchObject({ locks: 0, scheduled: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps one queued check per key through 100,000 acquire/release cycles with a 30 s TTL', async () => {
    open();
    const other = await state.acquireLock('other', 30_000);
    for (let cycle = 0; cycle < 100_000; cycle += 1) {
      const lease = await state.acquireLock('k', 30_000);
      expect(await state.releaseLock(lease!)).toBe(true);
      if (cycle % 10_000 === 0) clock.advance(1); // a sweeper tick now and then
    }
    expect(state.stats()).toEqual({
      marks: 0,
      locks: 1,
      scheduled: 1,
      waiters: 0,
      subscriptions: 0,
      threadStates: 0,
    });
    const held = await state.acquireLock('k', 30_000);
    expect(state.stats()).toMatchObject({ locks: 2, scheduled: 2 });
    await state.releaseLock(held!);
    await state.releaseLock(other!);
    expect(state.stats()).toEqual({
      marks: 0,
      locks: 0,
      scheduled: 0,
      waiters: 0,
      subscriptions: 0,
      threadStates: 0,
    });
  });

  it('keeps exactly one queued check per stored entry under a random mix of operations', async () => {
    open({ sweepBatchSize: 7 });
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const leases = new Map<string, Lease>();
    for (let step = 0; step < 20_000; step += 1) {
      const key = `k${random(40)}`;
      const roll = random(10);
      if (roll < 3) {
        const lease = await state.acquireLock(key, 50 + random(500));
        if (lease) leases.set(key, lease);
      } else if (roll < 5) {
        const lease = leases.get(key);
        if (lease) await state.releaseLock(lease);
        leases.delete(key);
      } else if (roll < 7) {
        const lease = leases.get(key);
        if (lease) await state.renewLock(lease, 50 + random(500));
      } else if (roll < 9) {
        await state.markEvent(`e${random(200)}`, 50 + random(500));
      } else {
        clock.advance(random(120));
      }
      const stats = state.stats();
      if (stats.scheduled !== stats.marks + stats.locks) {
        throw new Error(`step ${step}: ${JSON.stringify(stats)}`);
      }
    }
    clock.advance(1000);
    expect(state.stats()).toEqual({
      marks: 0,
      locks: 0,
      scheduled: 0,
      waiters: 0,
      subscriptions: 0,
      threadStates: 0,
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('arms no sweeper while nothing is scheduled and none after close', async () => {
    open();
    expect(vi.getTimerCount()).toBe(0);
    await state.markEvent('e', 100);
    expect(vi.getTimerCount()).toBe(1);
    await state.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(state.stats()).toEqual({
      marks: 0,
      locks: 0,
      scheduled: 0,
      waiters: 0,
      subscriptions: 0,
      threadStates: 0,
    });
  });

  it('rejects after close with StateClosedError', async () => {
    open();
    await state.close();
    await expect(state.markEvent('e', 100)).rejects.toMatchObject({
      name: 'StateClosedError',
      code: 'RT_STATE_UNAVAILABLE',
    });
  });
});

describe('createMemoryState timers and options', () => {
  it('unrefs its sweeper timer so it never keeps the process alive', async () => {
    const created: NodeJS.Timeout[] = [];
    const original = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      ...args: Parameters<typeof setTimeout>
    ) => {
      const timer = original(...args);
      created.push(timer);
      return timer;
    }) as typeof setTimeout);
    const state = createMemoryState();
    try {
      await state.markEvent('e', 60_000);
    } finally {
      spy.mockRestore();
    }
    expect(created).toHaveLength(1);
    expect(created[0]!.hasRef()).toBe(false);
    await state.close();
  });

  it('validates its options with the option name', () => {
    expect(() => createMemoryState({ sweepIntervalMs: 0 })).toThrow(/sweepIntervalMs/);
    expect(() => createMemoryState({ sweepIntervalMs: 0 })).toThrow(RangeError);
    expect(() => createMemoryState({ sweepBatchSize: 1.5 })).toThrow(RangeError);
    expect(() => createMemoryState({ now: 'soon' as unknown as () => number })).toThrow(TypeError);
  });
});
