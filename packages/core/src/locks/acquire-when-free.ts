import type { Observation } from '../observe/observation.js';
import type { HeldLock, LockManager } from './lock-manager.js';

/** How `acquireWhenFree` backs off while the lock is held elsewhere. */
export interface LockWaitOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  /** Ends the wait: the promise rejects with its reason and nothing stays held. */
  readonly signal: AbortSignal;
  readonly observe: (observation: Observation) => void;
  /** Random source in [0, 1) for jitter; injectable for tests. */
  readonly random?: () => number;
}

/**
 * Takes the lock on `key`, waiting as long as it takes: a local release wakes the waiter at once,
 * the State's optional wake-up capability wakes it for other instances' releases, and otherwise
 * it polls with capped exponential back-off and jitter (each wait is between half and all of the
 * current back-off). State errors are observed and retried. Rejects with `signal.reason` when the
 * signal aborts; a lock acquired just as the signal aborted is released first.
 */
export async function acquireWhenFree(
  locks: LockManager,
  key: string,
  options: LockWaitOptions,
): Promise<HeldLock> {
  const random = options.random ?? Math.random;
  let backoff = options.initialMs;
  for (;;) {
    options.signal.throwIfAborted();
    let lock: HeldLock | null = null;
    try {
      lock = await locks.tryAcquire(key);
    } catch (error) {
      options.observe({
        type: 'state_error',
        at: Date.now(),
        operation: 'acquireLock',
        key,
        error,
      });
    }
    if (lock) {
      if (options.signal.aborted) {
        await lock.release();
        throw options.signal.reason;
      }
      return lock;
    }
    const wait = backoff / 2 + (backoff / 2) * random();
    await locks.waitForRelease(key, wait, options.signal);
    backoff = Math.min(backoff * 2, options.maxMs);
  }
}
