import type { Observation } from '../observe/observation.js';
import { Cancellation, type CancelSource } from '../util/cancellation.js';
import { abortable, delay } from '../util/signals.js';
import type { HeldLock, LockManager } from './lock-manager.js';

/** How `acquireWhenFree` backs off while the lock is held elsewhere. */
export interface LockWaitOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  /**
   * Ends the wait: the promise rejects with its reason and nothing stays held. A `Cancellation`
   * or an `AbortSignal`.
   */
  readonly signal: CancelSource;
  /** A second source that ends the wait the same way (the runtime's shutdown), if any. */
  readonly also?: CancelSource;
  readonly observe: (observation: Observation) => void;
  /** Random source in [0, 1) for jitter; injectable for tests. */
  readonly random?: () => number;
}

/**
 * One attempt: the lock, `'held'` by someone else, or `'state-error'` (already observed). Rejects
 * with `signal.reason` as soon as the signal aborts, even while the State call is in flight.
 */
async function attempt(
  locks: LockManager,
  key: string,
  options: LockWaitOptions,
): Promise<HeldLock | 'held' | 'state-error'> {
  const { signal, also } = options;
  signal.throwIfAborted();
  also?.throwIfAborted();
  const pending = locks.tryAcquire(key);
  let lock: HeldLock | null;
  try {
    lock = await abortable(pending, signal, also);
  } catch (error) {
    const ended = signal.aborted ? signal : also?.aborted ? also : undefined;
    if (ended !== undefined) {
      // Given up while the State still works on it: a lease granted late is released at once, and
      // nothing about this attempt is observed any more (the delivery has its outcome).
      pending.then(
        (late) => late?.release(),
        () => {},
      );
      throw ended.reason;
    }
    options.observe({ type: 'state_error', at: Date.now(), operation: 'acquireLock', key, error });
    return 'state-error';
  }
  return lock ?? 'held';
}

/** Each wait is between half and all of the current back-off. */
function jittered(backoff: number, random: () => number): number {
  return backoff / 2 + (backoff / 2) * random();
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
    const result = await attempt(locks, key, options);
    if (typeof result !== 'string') return result;
    // The slow path (the lock is busy): a real signal for the release waiters.
    const { signal } = options;
    const waitSignal = signal instanceof Cancellation ? signal.signal : signal;
    await locks.waitForRelease(key, jittered(backoff, random), waitSignal);
    backoff = Math.min(backoff * 2, options.maxMs);
  }
}

/**
 * Tries to take the lock on `key` once: resolves the lock, or `null` when someone else holds it.
 * A State failure is no answer to that question, so it is observed and the attempt repeated after
 * the same capped, jittered back-off until the State answers. Rejects with `signal.reason` when
 * the signal aborts (the caller's detach timeout or shutdown deadline); a lock acquired just as
 * the signal aborted is released first. This is what keeps an accepted delivery from ending
 * `failed` over a State outage shorter than its detach timeout.
 */
export async function tryAcquireThroughOutage(
  locks: LockManager,
  key: string,
  options: LockWaitOptions,
): Promise<HeldLock | null> {
  const random = options.random ?? Math.random;
  let backoff = options.initialMs;
  for (;;) {
    const result = await attempt(locks, key, options);
    if (result === 'held') return null;
    if (result !== 'state-error') return result;
    await delay(jittered(backoff, random), options.signal, options.also);
    backoff = Math.min(backoff * 2, options.maxMs);
  }
}
