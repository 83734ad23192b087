import type { Observation } from '../observe/observation.js';
import { ReleaseWaiters } from '../state/release-waiters.js';
import { hasLockWakeups, type Lease, type State } from '../state/state.js';
import type { CancelSource } from '../util/cancellation.js';
import { abortable } from '../util/signals.js';
import { TimerWheel } from '../util/timer-wheel.js';
import { RenewedLock } from './renewed-lock.js';

/** Where a `HeldLock.releaseInto` ends. It may not throw. */
export interface ReleaseSink {
  /** The release settled (sent and answered, failed and observed, or nothing to send). */
  released(): void;
}

/**
 * A Thread Lock held by this runtime. While held it renews every third of the TTL. `signal`
 * aborts with `PreemptedError` when the lease is lost: a renewal returns `false`, or renewals keep
 * failing until the lease's local expiry passes.
 */
export interface HeldLock {
  readonly key: string;
  readonly fence: number;
  /** Aborts with `PreemptedError` on lease loss; never aborts otherwise. */
  readonly signal: AbortSignal;
  /** The same as `signal`, without building an `AbortSignal`: what the runtime follows. */
  readonly cancellation: CancelSource;
  /**
   * Stops renewal and releases the lease with its token (skipped when the lease is already lost,
   * so a successor's lock is never touched). Never rejects: a failed release is observed and the
   * lease lapses at its TTL. Idempotent.
   */
  release(): Promise<void>;
  /**
   * `release` with its end handed to `sink` (called once, never synchronously, never before the
   * release settled): no promise of the caller's waits on it.
   */
  releaseInto(sink: ReleaseSink): void;
  /**
   * A handler starts running under the lease: until `takeBack`, its release is not owed (the
   * lease is in use), so `LockManager.ioSettled` does not wait for it. Idempotent.
   */
  lend(): void;
  /**
   * The handler that ran under the lease finished: its release is owed again from now on, before
   * its delivery's outcome is recorded, so shutdown never sees a gap between the two. Idempotent;
   * no-op once released.
   */
  takeBack(): void;
}

/**
 * Acquires Thread Locks through the State and keeps them alive while work runs. Waiters for a key
 * are woken at once when this runtime releases it, and through the State's optional
 * `LockWakeups` capability when another instance does.
 */
export class LockManager {
  readonly #state: State;
  readonly #ttlMs: number;
  readonly #observe: (observation: Observation) => void;
  /** Where every lease's renewal and local expiry wait (one armed `setTimeout` for all). */
  readonly wheel: TimerWheel;
  /** Not unref'd: a parked waiter is accepted work and keeps the process alive. */
  readonly #releaseWaiters = new ReleaseWaiters({ keepAlive: true });
  /**
   * Lock I/O this runtime owes the State (a count: no promise per call): acquire calls in flight,
   * plus one release per lease granted and not yet released, unless a handler is running under it
   * (lent). A lease takes over its acquire call's count, so nothing is uncounted in between.
   */
  #ioOwed = 0;
  /** `ioSettled` waiters, woken when the count reaches 0. */
  #ioWaiters: (() => void)[] = [];

  /** `wheel`: the timer wheel leases' timers share (the runtime's; default a wheel of its own). */
  constructor(
    state: State,
    ttlMs: number,
    observe: (observation: Observation) => void,
    wheel: TimerWheel = new TimerWheel(),
  ) {
    this.#state = state;
    this.#ttlMs = ttlMs;
    this.#observe = observe;
    this.wheel = wheel;
  }

  /**
   * Tries once to take the lock on `key`. Resolves `null` when another holder has it; rejects with
   * the State's error when the State fails.
   */
  tryAcquire(key: string): Promise<HeldLock | null> {
    const requestedAt = Date.now();
    this.ioStarted();
    let acquiring: Promise<Lease | null>;
    try {
      acquiring = this.#state.acquireLock(key, this.#ttlMs);
    } catch (error) {
      this.ioEnded();
      return Promise.reject(error);
    }
    // Continued by callbacks: no async frame per acquisition.
    return acquiring.then(
      (lease) => this.#granted(lease, requestedAt),
      (error: unknown) => {
        this.ioEnded();
        throw error;
      },
    );
  }

  /** The State answered an acquisition requested at `requestedAt`. */
  #granted(lease: Lease | null, requestedAt: number): HeldLock | null {
    if (lease === null) {
      this.ioEnded();
      return null;
    }
    // The acquire's count passes to the lease: its release is owed from this moment.
    return new RenewedLock(this, this.#state, lease, this.#ttlMs, requestedAt, this.#observe);
  }

  /**
   * Lock I/O owed now: acquire calls in flight, and the releases of leases no running handler
   * uses (a delivery finished, or gave up, and its release is pending or in flight).
   */
  get ioOwed(): number {
    return this.#ioOwed;
  }

  /**
   * Resolves once no lock I/O is owed (see `ioOwed`), including I/O that becomes owed while it
   * waits (a lease granted late is released, and that release is waited for too). Rejects with
   * `signal.reason` when `signal` aborts first; the listener is removed either way. Aborting
   * cancels no State call: they go on and settle by themselves. Shutdown bounds lock I/O with it,
   * separately from handlers.
   */
  ioSettled(signal: AbortSignal): Promise<void> {
    if (this.#ioOwed === 0) return abortable(Promise.resolve(), signal);
    return abortable(new Promise<void>((resolve) => this.#ioWaiters.push(resolve)), signal);
  }

  /**
   * Resolves when `key` may have been released (this runtime released it, or the State's wake-up
   * capability said so) or after `timeoutMs`; rejects with `signal.reason` on abort. A wake-up is
   * a hint: the caller still has to acquire. Timers and listeners are removed either way.
   */
  async waitForRelease(key: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const parked = this.#releaseWaiters.wait(key, timeoutMs, signal);
    if (!hasLockWakeups(this.#state)) return parked;
    const stateWait = new AbortController();
    this.#state.waitForRelease(key, timeoutMs, stateWait.signal).then(
      () => this.#releaseWaiters.wake(key),
      () => {
        // An aborted or failed wake-up subscription falls back to the timer.
      },
    );
    try {
      await parked;
    } finally {
      stateWait.abort();
    }
  }

  /** Keys with someone waiting for their release (for tests proving cleanup). */
  get waitedKeys(): number {
    return this.#releaseWaiters.keys;
  }

  /** Lock I/O became owed (an acquire started, a lease came back from its handler). */
  ioStarted(): void {
    this.#ioOwed += 1;
  }

  /** Owed lock I/O ended (settled, or lent to a handler); the last one wakes `ioSettled` waiters. */
  ioEnded(): void {
    this.#ioOwed -= 1;
    if (this.#ioOwed > 0) return;
    const waiters = this.#ioWaiters;
    this.#ioWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Wakes this runtime's waiters for `key`: its lock was released here. */
  notifyReleased(key: string): void {
    this.#releaseWaiters.wake(key);
  }
}
