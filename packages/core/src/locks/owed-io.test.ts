import { describe, expect, it } from 'vitest';
import { PreemptedError } from '../errors.js';
import { flush } from '../test-support/test-adapter.js';
import { GatedReleaseState, TestState } from '../test-support/test-state.js';
import { LockManager } from './lock-manager.js';

const KEY = 'test:T1:t';

/** Whether `promise` has settled by now (no timers involved). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await flush();
  return done;
}

describe('owed lock I/O', () => {
  it('counts a granted lease as owing its release from the grant until the release settles', async () => {
    const state = new GatedReleaseState();
    const locks = new LockManager(state, 30_000, () => {});
    const lock = await locks.tryAcquire(KEY);
    expect(lock).not.toBeNull();
    expect(locks.ioOwed).toBe(1); // no gap between the acquire call and the lease
    const waiting = locks.ioSettled(new AbortController().signal);
    expect(await settled(waiting)).toBe(false);
    const releasing = lock!.release();
    await flush();
    expect(locks.ioOwed).toBe(1);
    expect(await settled(waiting)).toBe(false);
    state.gates[0]!();
    await releasing;
    expect(locks.ioOwed).toBe(0);
    expect(await settled(waiting)).toBe(true);
  });

  it('owes nothing while lent to a running handler, and owes again the moment it is taken back', async () => {
    const state = new GatedReleaseState();
    const locks = new LockManager(state, 30_000, () => {});
    const lock = (await locks.tryAcquire(KEY))!;
    lock.lend();
    lock.lend();
    expect(locks.ioOwed).toBe(0);
    expect(await settled(locks.ioSettled(new AbortController().signal))).toBe(true);
    lock.takeBack();
    lock.takeBack();
    expect(locks.ioOwed).toBe(1);
    const releasing = lock.release();
    lock.lend(); // no-op once releasing
    lock.takeBack();
    expect(locks.ioOwed).toBe(1);
    state.gates[0]!();
    await releasing;
    lock.takeBack(); // no-op once released
    expect(locks.ioOwed).toBe(0);
  });

  it('counts a release made while lent, and ends the count of a lost lease without a State call', async () => {
    const state = new GatedReleaseState();
    const locks = new LockManager(state, 30_000, () => {});
    const lent = (await locks.tryAcquire(KEY))!;
    lent.lend();
    const releasing = lent.release();
    expect(locks.ioOwed).toBe(1);
    state.gates[0]!();
    await releasing;
    expect(locks.ioOwed).toBe(0);

    state.faults.renewLock = () => false;
    const lost = (await locks.tryAcquire(KEY))!;
    const gone = new Promise((resolve) =>
      lost.signal.addEventListener('abort', () => resolve(lost.signal.reason)),
    );
    (lost as unknown as { renewDue(): void }).renewDue();
    expect(await gone).toBeInstanceOf(PreemptedError);
    await lost.release();
    expect(state.gates).toHaveLength(1); // nothing sent for a lost lease
    expect(locks.ioOwed).toBe(0);
  });

  it('owes nothing for an acquire that found the lock held or failed', async () => {
    const state = new TestState();
    const locks = new LockManager(state, 30_000, () => {});
    state.locks.set(KEY, { token: 'elsewhere', fence: 9, expiresAt: Date.now() + 60_000 });
    expect(await locks.tryAcquire(KEY)).toBeNull();
    state.faults.acquireLock = () => new Error('down');
    await expect(locks.tryAcquire(KEY)).rejects.toThrow('down');
    expect(locks.ioOwed).toBe(0);
  });
});
