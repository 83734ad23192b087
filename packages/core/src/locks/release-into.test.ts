/**
 * `HeldLock.releaseInto`: the strategies' way to continue after a release without a promise of
 * their own. Its sink hears once, never synchronously, and only after the release settled (the
 * owed count ended), on every path: answered, failed, already releasing, lease lost.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Observation } from '../observe/observation.js';
import { flush } from '../test-support/test-adapter.js';
import { GatedReleaseState, TestState } from '../test-support/test-state.js';
import { LockManager } from './lock-manager.js';

const KEY = 'test:T1:t';

/** A sink that records the manager's owed lock I/O at each call. */
function sinkOf(locks: LockManager) {
  const owedAtCall: number[] = [];
  return { owedAtCall, released: () => owedAtCall.push(locks.ioOwed) };
}

describe('HeldLock.releaseInto', () => {
  it('tells its sink once the State answered, after the owed I/O ended, never synchronously', async () => {
    const state = new GatedReleaseState();
    const locks = new LockManager(state, 30_000, () => {});
    const lock = (await locks.tryAcquire(KEY))!;
    const sink = sinkOf(locks);
    lock.releaseInto(sink);
    expect(sink.owedAtCall).toEqual([]);
    await flush();
    expect(sink.owedAtCall).toEqual([]); // the State has not answered
    state.gates[0]!();
    await flush();
    expect(sink.owedAtCall).toEqual([0]);
    expect(state.locks.has(KEY)).toBe(false);
  });

  it('tells its sink after a failed release is observed, and a second sink of a lock already releasing', async () => {
    const state = new TestState();
    const seen: Observation[] = [];
    const locks = new LockManager(state, 30_000, (o) => seen.push(o));
    const lock = (await locks.tryAcquire(KEY))!;
    state.faults.releaseLock = () => new Error('down');
    const first = sinkOf(locks);
    const second = sinkOf(locks);
    lock.releaseInto(first);
    lock.releaseInto(second);
    await lock.release(); // idempotent: the same release
    await flush();
    expect(first.owedAtCall).toEqual([0]);
    expect(second.owedAtCall).toEqual([0]);
    expect(seen.map((o) => o.type)).toEqual(['state_error']);
    expect(state.calls.filter((c) => c.startsWith('releaseLock'))).toHaveLength(1);
  });

  it('keeps the release resolved for its other callers when a sink throws, and rethrows the error on its own', async () => {
    const state = new TestState();
    const locks = new LockManager(state, 30_000, () => {});
    const lock = (await locks.tryAcquire(KEY))!;
    const rethrown: (() => void)[] = [];
    const queued = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      rethrown.push(task);
    });
    try {
      lock.releaseInto({
        released: () => {
          throw new Error('sink broke');
        },
      });
      await expect(lock.release()).resolves.toBeUndefined();
    } finally {
      queued.mockRestore();
    }
    expect(rethrown).toHaveLength(1);
    expect(() => rethrown[0]!()).toThrow('sink broke');
    expect(locks.ioOwed).toBe(0);
  });

  it('tells its sink of a lost lease one microtask later, with nothing sent', async () => {
    const state = new TestState();
    const locks = new LockManager(state, 30_000, () => {});
    state.faults.renewLock = () => false;
    const lost = (await locks.tryAcquire(KEY))!;
    (lost as unknown as { renewDue(): void }).renewDue();
    await flush();
    expect(lost.signal.aborted).toBe(true);
    const sink = sinkOf(locks);
    lost.releaseInto(sink);
    expect(sink.owedAtCall).toEqual([]);
    await flush();
    expect(sink.owedAtCall).toEqual([0]);
    expect(state.calls.filter((c) => c.startsWith('releaseLock'))).toEqual([]);
  });
});
