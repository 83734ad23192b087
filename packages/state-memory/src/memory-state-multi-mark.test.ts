import { hasMultiKeyMark, installationMarkKey } from '@rt/core/state';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryState, type MemoryState } from './memory-state.js';

const eventKey = (id: string) => installationMarkKey('event', 'slack', 'T1', id);
const messageKey = (id: string) => installationMarkKey('message', 'slack', 'T1', id);

describe('memory state markEvents with a fake clock', () => {
  let now = 0;
  let state: MemoryState;

  beforeEach(() => {
    vi.useFakeTimers();
    now = 1_000_000;
    state = createMemoryState({ now: () => now, sweepIntervalMs: 100 });
  });

  afterEach(async () => {
    await state.close();
    vi.useRealTimers();
  });

  /** Moves the injected clock and runs the sweeper ticks that fall due. */
  const advance = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  it('has the MultiKeyMark capability', () => {
    expect(hasMultiKeyMark(state)).toBe(true);
  });

  it('keeps every key of a mark alive until exactly its expiresAt', async () => {
    const keys = [eventKey('Ev1'), messageKey('C1:1.1')];
    expect(await state.markEvents(keys, 1000)).toBe(true);
    now += 999;
    expect(await state.markEvent(keys[0]!, 1000)).toBe(false);
    expect(await state.markEvent(keys[1]!, 1000)).toBe(false);
    now += 1;
    expect(await state.markEvents(keys, 1000)).toBe(true);
  });

  it('reclaims expired multi-key marks in the background, one queued check per key', async () => {
    for (let index = 0; index < 500; index += 1) {
      expect(await state.markEvents([eventKey(`Ev${index}`), messageKey(`m${index}`)], 500)).toBe(
        true,
      );
    }
    expect(state.stats()).toEqual({
      marks: 1000,
      locks: 0,
      scheduled: 1000,
      waiters: 0,
      subscriptions: 0,
      threadStates: 0,
    });
    advance(500);
    advance(100);
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

  it('reuses an expired, not yet swept entry without queueing a second check', async () => {
    const keys = [eventKey('Ev1'), messageKey('m1')];
    expect(await state.markEvents(keys, 10)).toBe(true);
    now += 10; // expired, but no sweeper tick yet
    expect(await state.markEvents(keys, 10_000)).toBe(true);
    expect(state.stats()).toMatchObject({ marks: 2, scheduled: 2 });
    advance(200); // the old checks come due, find the marks extended and requeue themselves
    expect(state.stats()).toMatchObject({ marks: 2, scheduled: 2 });
    expect(await state.markEvent(keys[1]!, 10)).toBe(false);
  });

  it('writes nothing when one key is alive: no new entry, no queued check, no extension', async () => {
    const alive = eventKey('Ev1');
    expect(await state.markEvent(alive, 100)).toBe(true);
    expect(await state.markEvents([messageKey('m1'), alive], 60_000)).toBe(false);
    expect(state.stats()).toMatchObject({ marks: 1, scheduled: 1 });
    now += 100;
    expect(await state.markEvent(alive, 100)).toBe(true);
    expect(await state.markEvent(messageKey('m1'), 100)).toBe(true);
  });

  it('keeps exactly one queued check per stored mark under a random mix of marks', async () => {
    let seed = 5;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let step = 0; step < 5000; step += 1) {
      const roll = random(10);
      if (roll < 4) {
        const ids = [...new Set([random(30), random(30), random(30)])];
        await state.markEvents(
          ids.map((id) => (id % 2 === 0 ? eventKey(`${id}`) : messageKey(`${id}`))),
          20 + random(300),
        );
      } else if (roll < 7) {
        const id = random(30);
        await state.markEvent(
          id % 2 === 0 ? eventKey(`${id}`) : messageKey(`${id}`),
          20 + random(300),
        );
      } else {
        advance(random(80));
      }
      const stats = state.stats();
      if (stats.scheduled !== stats.marks)
        throw new Error(`step ${step}: ${JSON.stringify(stats)}`);
    }
    advance(1000);
    expect(state.stats()).toEqual({
      marks: 0,
      locks: 0,
      scheduled: 0,
      waiters: 0,
      subscriptions: 0,
      threadStates: 0,
    });
  });

  it('rejects after close with StateClosedError and validates before marking anything', async () => {
    await expect(state.markEvents([eventKey('Ev1'), ''], 100)).rejects.toThrow(TypeError);
    await expect(state.markEvents([eventKey('Ev1')], 0)).rejects.toThrow(RangeError);
    expect(state.stats().marks).toBe(0);
    await state.close();
    await expect(state.markEvents([eventKey('Ev1')], 100)).rejects.toMatchObject({
      name: 'StateClosedError',
      code: 'RT_STATE_UNAVAILABLE',
    });
  });
});
