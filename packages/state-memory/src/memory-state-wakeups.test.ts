import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryState, type MemoryState } from './memory-state.js';

/** An AbortSignal whose listener bookkeeping the test can inspect. */
function trackedSignal() {
  const controller = new AbortController();
  const added = vi.spyOn(controller.signal, 'addEventListener');
  const removed = vi.spyOn(controller.signal, 'removeEventListener');
  return {
    controller,
    signal: controller.signal,
    /** True when every listener added was removed again. */
    clean: () =>
      added.mock.calls.length > 0 &&
      added.mock.calls.every(([type, listener]) =>
        removed.mock.calls.some(([t, l]) => t === type && l === listener),
      ),
  };
}

describe('memory state waitForRelease', () => {
  let now = 0;
  let state: MemoryState;

  beforeEach(() => {
    vi.useFakeTimers();
    now = 5_000;
    state = createMemoryState({ now: () => now });
  });

  afterEach(async () => {
    await state.close();
    vi.useRealTimers();
  });

  it('wakes on release and removes its listener and timer', async () => {
    const lease = await state.acquireLock('k', 10_000);
    const tracked = trackedSignal();
    const waiting = state.waitForRelease('k', 60_000, tracked.signal);
    await Promise.resolve();
    expect(state.stats().waiters).toBe(1);
    await state.releaseLock(lease!);
    await waiting;
    expect(tracked.clean()).toBe(true);
    expect(state.stats().waiters).toBe(0);
    expect(vi.getTimerCount()).toBe(0); // nothing scheduled: the sweeper is disarmed too
  });

  it('wakes after timeoutMs and removes its listener', async () => {
    await state.acquireLock('k', 10_000);
    const tracked = trackedSignal();
    const waiting = state.waitForRelease('k', 300, tracked.signal);
    await vi.advanceTimersByTimeAsync(300);
    await waiting;
    expect(tracked.clean()).toBe(true);
    expect(state.stats().waiters).toBe(0);
  });

  it('wakes when the current lease would lapse, before a longer timeout', async () => {
    await state.acquireLock('k', 200);
    const waiting = state.waitForRelease('k', 60_000, new AbortController().signal);
    let woke = false;
    void waiting.then(() => {
      woke = true;
    });
    now += 199;
    await vi.advanceTimersByTimeAsync(199);
    expect(woke).toBe(false);
    now += 1;
    await vi.advanceTimersByTimeAsync(1);
    expect(woke).toBe(true);
    expect(await state.acquireLock('k', 200)).not.toBeNull();
  });

  it('rejects with the abort reason and removes its listener', async () => {
    await state.acquireLock('k', 10_000);
    const tracked = trackedSignal();
    const waiting = state.waitForRelease('k', 60_000, tracked.signal);
    const reason = new Error('stop');
    tracked.controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(tracked.clean()).toBe(true);
    expect(state.stats().waiters).toBe(0);
  });

  it('rejects parked waiters with StateClosedError on close', async () => {
    await state.acquireLock('k', 10_000);
    const tracked = trackedSignal();
    const waiting = state.waitForRelease('k', 60_000, tracked.signal);
    await state.close();
    await expect(waiting).rejects.toMatchObject({ name: 'StateClosedError' });
    expect(tracked.clean()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('validates its arguments', async () => {
    const signal = new AbortController().signal;
    await expect(state.waitForRelease('', 10, signal)).rejects.toThrow(TypeError);
    await expect(state.waitForRelease('k', -1, signal)).rejects.toThrow(RangeError);
    await expect(state.waitForRelease('k', Number.NaN, signal)).rejects.toThrow(RangeError);
    await expect(state.waitForRelease('k', 10, {} as unknown as AbortSignal)).rejects.toThrow(
      TypeError,
    );
  });
});
