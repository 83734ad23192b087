import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryState, type MemoryState } from './memory-state.js';

/** A fake clock the State reads, moved together with vitest's fake timers. */
function fakeClock() {
  let now = 1_000_000;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
      vi.advanceTimersByTime(ms);
    },
  };
}

describe('memory subscriptions and thread state with a fake clock', () => {
  let clock: ReturnType<typeof fakeClock>;
  let state: MemoryState;

  beforeEach(() => {
    vi.useFakeTimers();
    clock = fakeClock();
    state = createMemoryState({ now: clock.now, sweepIntervalMs: 100, sweepBatchSize: 10_000 });
  });
  afterEach(async () => {
    await state.close();
    vi.useRealTimers();
  });

  it('ends a subscription exactly at its TTL, and a touch moves that by the TTL', async () => {
    await state.subscribe('t', 1000);
    clock.advance(999);
    expect(await state.touchSubscription('t')).toBe(true); // now lives until +1999
    clock.advance(999);
    expect(await state.isSubscribed('t')).toBe(true);
    clock.advance(1);
    expect(await state.isSubscribed('t')).toBe(false);
  });

  it('reclaims a flood of expired subscriptions and thread states in the background', async () => {
    for (let index = 0; index < 2000; index += 1) {
      await state.subscribe(`sub-${index}`, 500);
      await state.writeThreadState(`ts-${index}`, '{}', 1, 500);
    }
    expect(state.stats()).toMatchObject({ subscriptions: 2000, threadStates: 2000 });
    // Touched and rewritten entries keep their one queued check, which reschedules itself.
    await state.touchSubscription('sub-0');
    await state.writeThreadState('ts-0', '{"again":true}', 2, 500);
    clock.advance(300);
    await state.touchSubscription('sub-0');
    await state.writeThreadState('ts-0', '{"again":2}', 2, 500);
    clock.advance(300);
    expect(state.stats()).toMatchObject({ subscriptions: 1, threadStates: 1 });
    clock.advance(600);
    expect(state.stats()).toMatchObject({ subscriptions: 0, threadStates: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('forgets an unsubscribed thread at once, with its queued check', async () => {
    await state.subscribe('t', 60_000);
    expect(await state.unsubscribe('t')).toBe(true);
    expect(state.stats()).toMatchObject({ subscriptions: 0 });
    clock.advance(100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('drops everything at close and refuses every conversation call after it', async () => {
    await state.subscribe('t', 60_000);
    await state.writeThreadState('t', '1', 1, 60_000);
    await state.close();
    expect(state.stats()).toMatchObject({ subscriptions: 0, threadStates: 0 });
    for (const call of [
      () => state.subscribe('t', 1),
      () => state.touchSubscription('t'),
      () => state.readThreadState('t'),
      () => state.writeThreadState('t', '1', 1, 1),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'RT_STATE_UNAVAILABLE' });
    }
    expect(vi.getTimerCount()).toBe(0);
  });
});
