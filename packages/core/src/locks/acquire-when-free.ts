import type { Observation } from '../observe/observation.js';
import { Cancellation, type CancelSource, type Watch } from '../util/cancellation.js';
import { delay } from '../util/signals.js';
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

/** Each wait is between half and all of the current back-off. */
function jittered(backoff: number, random: () => number): number {
  return backoff / 2 + (backoff / 2) * random();
}

/** Releases a lease granted after its acquisition gave up; swallows a late failure. */
function releaseLate(late: HeldLock | null): void {
  void late?.release();
}
function ignore(): void {}
/** What a grant is resolved after (one microtask, no Node `queueMicrotask` wrapper). */
const RESOLVED = Promise.resolve();

/**
 * Where a lock acquisition ends: exactly one of the two is called, once, never before the
 * acquisition's constructor returns for a grant (a grant is handed over one microtask later).
 * Neither may throw.
 */
export interface LockSink {
  /** The lock (or `null`: busy, for an acquisition that does not wait for it to free). */
  locked(lock: HeldLock | null): void;
  /** `signal` or `also` aborted first: nothing is held. */
  gaveUp(reason: unknown): void;
}

/**
 * One lock acquisition, start to end, as one record (no async frame, no closure per attempt): it
 * tries the lock, and while the lock is busy (`untilFree`) or the State fails it waits and tries
 * again, handing its sink the lock (or `null`: busy and not `untilFree`), or giving up with the
 * reason of `signal` or `also` as soon as one aborts, even while a State call is in flight (a
 * lease granted late is then released at once, and nothing about it is observed any more).
 */
class LockAcquisition {
  readonly #locks: LockManager;
  readonly #key: string;
  readonly #options: LockWaitOptions;
  readonly #untilFree: boolean;
  readonly #random: () => number;
  #backoff: number;
  readonly #sink: LockSink;
  /** The State call in flight, while one is. */
  #pending: Promise<HeldLock | null> | undefined;
  #watchSignal: Watch | undefined;
  #watchAlso: Watch | undefined;
  #settled = false;

  constructor(
    locks: LockManager,
    key: string,
    options: LockWaitOptions,
    untilFree: boolean,
    sink: LockSink,
  ) {
    this.#sink = sink;
    this.#locks = locks;
    this.#key = key;
    this.#options = options;
    this.#untilFree = untilFree;
    this.#random = options.random ?? Math.random;
    this.#backoff = options.initialMs;
    this.#attempt();
  }

  /** One attempt; the State's answer comes back through `granted` or `failed`. */
  #attempt(): void {
    const { signal, also } = this.#options;
    const ended = signal.aborted ? signal : also?.aborted ? also : undefined;
    if (ended !== undefined) {
      this.#fail(ended.reason);
      return;
    }
    let pending: Promise<HeldLock | null>;
    try {
      pending = this.#locks.tryAcquire(this.#key);
    } catch (error) {
      pending = Promise.reject(error);
    }
    this.#pending = pending;
    // Aborted while the call was made (the State's own code may run synchronously): given up.
    const endedMeanwhile = signal.aborted ? signal : also?.aborted ? also : undefined;
    if (endedMeanwhile !== undefined) {
      this.handleAbort(endedMeanwhile.reason);
      return;
    }
    this.#watchSignal = Cancellation.watch(signal, this);
    if (also !== undefined) this.#watchAlso = Cancellation.watch(also, this);
    pending.then(
      (lock) => this.#granted(pending, lock),
      (error: unknown) => this.#failed(pending, error),
    );
  }

  /** `signal` or `also` aborted while a State call was in flight. */
  handleAbort(reason: unknown): void {
    const pending = this.#pending;
    this.#unwatch();
    if (pending !== undefined) pending.then(releaseLate, ignore);
    this.#fail(reason);
  }

  #granted(pending: Promise<HeldLock | null>, lock: HeldLock | null): void {
    if (this.#pending !== pending) return; // given up meanwhile: `handleAbort` releases it
    this.#unwatch();
    if (lock !== null) {
      this.#settled = true;
      // One microtask later, as when each attempt was an async function: a delivery dispatched
      // in the same tick as the one taking a free lock still finds its handler not started
      // (queue's "supersedes ... even while it takes a free lock").
      RESOLVED.then(() => this.#sink.locked(lock));
    } else if (this.#untilFree) this.#waitForRelease();
    else {
      this.#settled = true;
      this.#sink.locked(null);
    }
  }

  #failed(pending: Promise<HeldLock | null>, error: unknown): void {
    if (this.#pending !== pending) return;
    this.#unwatch();
    this.#options.observe({
      type: 'state_error',
      at: Date.now(),
      operation: 'acquireLock',
      key: this.#key,
      error,
    });
    if (this.#untilFree) this.#waitForRelease();
    else this.#retryAfterDelay();
  }

  /** The lock is busy (or the State failed): wait for its release, or the back-off, then retry. */
  #waitForRelease(): void {
    const { signal } = this.#options;
    // The slow path (the lock is busy): a real signal for the release waiters.
    const waitSignal = signal instanceof Cancellation ? signal.signal : signal;
    const wait = this.#nextWait();
    let waiting: Promise<void>;
    try {
      waiting = this.#locks.waitForRelease(this.#key, wait, waitSignal);
    } catch (error) {
      waiting = Promise.reject(error);
    }
    waiting.then(
      () => this.#attempt(),
      (reason: unknown) => this.#fail(reason),
    );
  }

  /** The State failed and the caller takes a busy lock for an answer: retry after the back-off. */
  #retryAfterDelay(): void {
    delay(this.#nextWait(), this.#options.signal, this.#options.also).then(
      () => this.#attempt(),
      (reason: unknown) => this.#fail(reason),
    );
  }

  /** The jittered wait before the next attempt; doubles the back-off (capped) for the one after. */
  #nextWait(): number {
    const wait = jittered(this.#backoff, this.#random);
    this.#backoff = Math.min(this.#backoff * 2, this.#options.maxMs);
    return wait;
  }

  #unwatch(): void {
    this.#pending = undefined;
    if (this.#watchSignal !== undefined) Cancellation.unwatch(this.#watchSignal, this);
    if (this.#watchAlso !== undefined) Cancellation.unwatch(this.#watchAlso, this);
    this.#watchSignal = undefined;
    this.#watchAlso = undefined;
  }

  #fail(reason: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#sink.gaveUp(reason);
  }
}

/**
 * Takes the lock on `key`, waiting as long as it takes: a local release wakes the waiter at once,
 * the State's optional wake-up capability wakes it for other instances' releases, and otherwise
 * it polls with capped exponential back-off and jitter (each wait is between half and all of the
 * current back-off). State errors are observed and retried. Rejects with `signal.reason` when the
 * signal aborts; a lock acquired just as the signal aborted is released first.
 */
export function acquireWhenFree(
  locks: LockManager,
  key: string,
  options: LockWaitOptions,
): Promise<HeldLock> {
  return new Promise<HeldLock>((resolve, reject) => {
    acquireWhenFreeInto(locks, key, options, {
      locked: resolve as (lock: HeldLock | null) => void,
      gaveUp: reject,
    });
  });
}

/**
 * `acquireWhenFree` with its end handed to `sink` instead of a promise (`locked` is never given
 * `null` here): what a strategy whose scope record is its own sink uses.
 */
export function acquireWhenFreeInto(
  locks: LockManager,
  key: string,
  options: LockWaitOptions,
  sink: LockSink,
): void {
  new LockAcquisition(locks, key, options, true, sink);
}

/**
 * Tries to take the lock on `key` once, handing `sink` the lock, or `null` when someone else holds
 * it. A State failure is no answer to that question, so it is observed and the attempt repeated
 * after the same capped, jittered back-off until the State answers. Gives up with `signal`'s (or
 * `also`'s) reason when one aborts (the caller's detach timeout or shutdown deadline); a lock
 * acquired just as it aborted is released first. This is what keeps an accepted delivery from
 * ending `failed` over a State outage shorter than its detach timeout.
 */
export function tryAcquireThroughOutageInto(
  locks: LockManager,
  key: string,
  options: LockWaitOptions,
  sink: LockSink,
): void {
  new LockAcquisition(locks, key, options, false, sink);
}
