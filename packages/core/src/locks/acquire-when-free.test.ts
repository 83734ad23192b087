import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Observation } from '../observe/observation.js';
import { flush } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';
import { acquireWhenFree } from './acquire-when-free.js';
import { type HeldLock, LockManager } from './lock-manager.js';

const KEY = 'test:T1:t';

/** A LockManager on a TestState (no wake-up capability), recording waits and attempt times. */
function harness() {
  const state = new TestState();
  const observations: Observation[] = [];
  const locks = new LockManager(state, 30_000, (o) => void observations.push(o));
  const waits: number[] = [];
  const waitForRelease = locks.waitForRelease.bind(locks);
  vi.spyOn(locks, 'waitForRelease').mockImplementation((key, timeoutMs, signal) => {
    waits.push(timeoutMs);
    return waitForRelease(key, timeoutMs, signal);
  });
  const attemptsAt: number[] = [];
  const start = Date.now();
  state.faults.acquireLock = () => {
    attemptsAt.push(Date.now() - start);
    return undefined;
  };
  /** Another instance holds the key until `holdElsewhere.free()`. */
  const holdElsewhere = () => {
    state.locks.set(KEY, { token: 'elsewhere', fence: 1000, expiresAt: Date.now() + 3_600_000 });
    return { free: () => void state.locks.delete(KEY) };
  };
  return { state, observations, locks, waits, attemptsAt, holdElsewhere };
}

/** Settles into `box` so a test can look without waiting for timers. */
function watch<T>(promise: Promise<T>) {
  const box: { value?: T; error?: unknown; done: boolean } = { done: false };
  promise.then(
    (value) => Object.assign(box, { value, done: true }),
    (error: unknown) => Object.assign(box, { error, done: true }),
  );
  return box;
}

describe('acquireWhenFree', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits between half and all of each back-off, doubling from initialMs and capped at maxMs', async () => {
    const { locks, waits, attemptsAt, holdElsewhere } = harness();
    const elsewhere = holdElsewhere();
    const rolls = [0, 0.5, 0.75, 0.25, 0, 0.5, 0.998, 0.75];
    let roll = 0;
    const acquiring = watch(
      acquireWhenFree(locks, KEY, {
        initialMs: 100,
        maxMs: 1000,
        signal: new AbortController().signal,
        observe: () => {},
        random: () => rolls[roll++ % rolls.length]!,
      }),
    );
    const backoffs = [100, 200, 400, 800, 1000, 1000, 1000, 1000];
    const expected = backoffs.map((b, i) => b / 2 + (b / 2) * rolls[i]!);
    expect(expected).toEqual([50, 150, 350, 500, 500, 750, 999, 875]);
    let elapsed = 0;
    for (const wait of expected) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(attemptsAt).toHaveLength(waits.length); // not yet: the wait is not over
      await vi.advanceTimersByTimeAsync(1);
      elapsed += wait;
      expect(attemptsAt.at(-1)).toBe(elapsed);
    }
    expect(waits.slice(0, backoffs.length)).toEqual(expected);
    for (const [i, wait] of waits.slice(0, backoffs.length).entries()) {
      expect(wait).toBeGreaterThanOrEqual(backoffs[i]! / 2);
      expect(wait).toBeLessThanOrEqual(Math.min(backoffs[i]!, 1000));
    }
    expect(acquiring.done).toBe(false);

    elsewhere.free();
    await vi.advanceTimersByTimeAsync(1000);
    expect(acquiring.done).toBe(true);
    expect(acquiring.value).toMatchObject({ key: KEY });
    await acquiring.value?.release();
  });

  it('wakes at once when this runtime releases the lock, without waiting out its back-off', async () => {
    const { locks, waits } = harness();
    const holder = (await locks.tryAcquire(KEY))!;
    const acquiring = watch(
      acquireWhenFree(locks, KEY, {
        initialMs: 60_000,
        maxMs: 60_000,
        signal: new AbortController().signal,
        observe: () => {},
        random: () => 0,
      }),
    );
    await flush();
    expect(waits).toEqual([30_000]);
    expect(locks.waitedKeys).toBe(1);
    const before = Date.now();
    await holder.release();
    await flush();
    expect(Date.now()).toBe(before);
    expect(acquiring.done).toBe(true);
    expect(acquiring.value!.fence).toBeGreaterThan(holder.fence);
    expect(locks.waitedKeys).toBe(0);
    await acquiring.value!.release();
  });

  it('rejects with the signal reason when aborted while waiting, leaving no timer, listener or waiter behind', async () => {
    const { locks, state, holdElsewhere } = harness();
    holdElsewhere();
    const controller = new AbortController();
    const acquiring = watch(
      acquireWhenFree(locks, KEY, {
        initialMs: 100,
        maxMs: 1000,
        signal: controller.signal,
        observe: () => {},
      }),
    );
    await vi.advanceTimersByTimeAsync(500);
    expect(vi.getTimerCount()).toBe(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(locks.waitedKeys).toBe(1);
    const reason = new Error('detach timeout');
    controller.abort(reason);
    await flush();
    expect(acquiring).toMatchObject({ done: true, error: reason });
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(locks.waitedKeys).toBe(0);
    const attempts = state.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.calls).toHaveLength(attempts);
  });

  it('removes its abort listener and waiter record once it holds the lock', async () => {
    const { locks, holdElsewhere } = harness();
    const elsewhere = holdElsewhere();
    const controller = new AbortController();
    const acquiring = watch(
      acquireWhenFree(locks, KEY, {
        initialMs: 100,
        maxMs: 100,
        signal: controller.signal,
        observe: () => {},
      }),
    );
    await vi.advanceTimersByTimeAsync(250);
    elsewhere.free();
    await vi.advanceTimersByTimeAsync(100);
    expect(acquiring.done).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(locks.waitedKeys).toBe(0);
    const lock = acquiring.value as HeldLock;
    await lock.release();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once with the reason and never asks the State when the signal already aborted', async () => {
    const { locks, state } = harness();
    const reason = new Error('shutdown');
    const options = { initialMs: 100, maxMs: 1000, observe: () => {} };
    await expect(
      acquireWhenFree(locks, KEY, { ...options, signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(state.calls).toEqual([]);
  });

  it('releases a lock granted just as the signal aborted, then rejects with the reason', async () => {
    const { locks, state } = harness();
    const controller = new AbortController();
    const reason = new Error('detach timeout');
    state.faults.acquireLock = () => {
      controller.abort(reason); // aborts while the State grants the lease
      return undefined;
    };
    await expect(
      acquireWhenFree(locks, KEY, {
        initialMs: 100,
        maxMs: 1000,
        signal: controller.signal,
        observe: () => {},
      }),
    ).rejects.toBe(reason);
    expect(state.calls).toEqual([`acquireLock ${KEY}`, `releaseLock ${KEY}`]);
    expect(state.locks.size).toBe(0);
  });

  it('observes each State error on acquire and retries after the growing back-off', async () => {
    const { locks, state, waits } = harness();
    const observed: Observation[] = [];
    const failures = [new Error('down 1'), new Error('down 2')];
    state.faults.acquireLock = () => failures.shift();
    const acquiring = watch(
      acquireWhenFree(locks, KEY, {
        initialMs: 100,
        maxMs: 1000,
        signal: new AbortController().signal,
        observe: (o) => void observed.push(o),
        random: () => 0,
      }),
    );
    await flush();
    expect(observed).toMatchObject([
      { type: 'state_error', operation: 'acquireLock', key: KEY, error: { message: 'down 1' } },
    ]);
    await vi.advanceTimersByTimeAsync(50);
    expect(observed).toHaveLength(2);
    expect(observed[1]).toMatchObject({ error: { message: 'down 2' } });
    expect(acquiring.done).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(acquiring.done).toBe(true);
    expect(acquiring.value).toMatchObject({ key: KEY });
    expect(waits).toEqual([50, 100]);
    expect(state.calls.filter((c) => c.startsWith('acquireLock'))).toHaveLength(3);
    await acquiring.value?.release();
  });
});

describe('giving up on a lock while the State call is in flight', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('rejects at once on abort, releases a lease granted later, and lets ioSettled wait for both', async () => {
    const { locks, state } = harness();
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => (grant = resolve));
    const acquireLock = state.acquireLock.bind(state);
    state.acquireLock = async (key, ttlMs) => {
      await granted;
      return acquireLock(key, ttlMs);
    };
    const controller = new AbortController();
    const reason = new Error('shutdown');
    const acquiring = watch(
      acquireWhenFree(locks, KEY, {
        initialMs: 100,
        maxMs: 1000,
        signal: controller.signal,
        observe: () => {},
      }),
    );
    await flush();
    controller.abort(reason);
    await flush();
    expect(acquiring).toMatchObject({ done: true, error: reason });
    expect(locks.ioOwed).toBe(1);
    const settled = watch(locks.ioSettled(new AbortController().signal));
    grant();
    await flush(20);
    expect(settled.done).toBe(true);
    expect(state.calls).toEqual([`acquireLock ${KEY}`, `releaseLock ${KEY}`]);
    expect(state.locks.size).toBe(0);
    expect(locks.ioOwed).toBe(0);
  });

  it('stops waiting for lock I/O when its signal aborts, and removes its listener', async () => {
    const { locks, state } = harness();
    state.acquireLock = () => new Promise(() => {});
    void locks.tryAcquire(KEY);
    const budget = new AbortController();
    const waiting = watch(locks.ioSettled(budget.signal));
    const reason = new Error('budget over');
    budget.abort(reason);
    await flush();
    expect(waiting).toMatchObject({ done: true, error: reason });
    expect(getEventListeners(budget.signal, 'abort')).toHaveLength(0);
  });
});
