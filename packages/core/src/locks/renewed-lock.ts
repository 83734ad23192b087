import { PreemptedError } from '../errors.js';
import type { Observation } from '../observe/observation.js';
import type { Lease, State } from '../state/state.js';
import { Cancellation } from '../util/cancellation.js';
import { WheelTimer } from '../util/timer-wheel.js';
import type { HeldLock, LockManager, ReleaseSink } from './lock-manager.js';

/** What a release that sends nothing resolves with. */
const RESOLVED: Promise<void> = Promise.resolve();

/**
 * Tells a release's sink it is over. A sink may not throw; if one does, its error is rethrown on
 * its own (an uncaught exception, as from a `then` of its own before), so the release itself,
 * which `release()` callers share, still never rejects.
 */
function tell(sink: ReleaseSink): void {
  try {
    sink.released();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

/** The timer callback shared by every lock (the argument, not a closure, carries the lock). */
function leaseDue(lock: RenewedLock): void {
  lock.renewDue();
}

/**
 * A lease plus its renewal loop, on one timer: the lock is its own node on the manager's timer
 * wheel (it extends `WheelTimer`), re-armed like a `setTimeout`, never keeping the process alive.
 * The node is armed for whichever comes first, the next renewal or the local expiry, and while a
 * renewal is in flight for the local expiry; when it fires at or after the local expiry the lease
 * is lost, otherwise a renewal is due. (An expiry and a renewal due at the same moment: the
 * expiry wins.)
 */
export class RenewedLock extends WheelTimer<RenewedLock> implements HeldLock {
  readonly #manager: LockManager;
  readonly #state: State;
  readonly #lease: Lease;
  readonly #ttlMs: number;
  readonly #observe: (observation: Observation) => void;
  readonly #controller = new Cancellation();
  #localExpiresAt: number;
  #releasing: Promise<void> | undefined;
  /** Whether this lease holds one count of its manager's owed I/O (see `LockManager.ioOwed`). */
  #owes = true;

  constructor(
    manager: LockManager,
    state: State,
    lease: Lease,
    ttlMs: number,
    requestedAt: number,
    observe: (observation: Observation) => void,
  ) {
    super(leaseDue);
    this.#manager = manager;
    this.#state = state;
    this.#lease = lease;
    this.#ttlMs = ttlMs;
    this.#observe = observe;
    // Measured from before the request: never later than the State's own expiry.
    this.#localExpiresAt = requestedAt + ttlMs;
    this.#armNext();
  }

  get key(): string {
    return this.#lease.key;
  }

  get fence(): number {
    return this.#lease.fence;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get cancellation(): Cancellation {
    return this.#controller;
  }

  release(): Promise<void> {
    this.#releasing ??= this.#release(undefined);
    return this.#releasing;
  }

  releaseInto(sink: ReleaseSink): void {
    if (this.#releasing === undefined) this.#releasing = this.#release(sink);
    else this.#releasing.then(() => tell(sink));
  }

  lend(): void {
    if (!this.#owes || this.#releasing) return;
    this.#owes = false;
    this.#manager.ioEnded();
  }

  takeBack(): void {
    if (this.#owes || this.#releasing) return;
    this.#owes = true;
    this.#manager.ioStarted();
  }

  /**
   * Releases with the token. After the lease was declared lost nothing is sent: a refused renewal
   * means someone else holds the key, and the local expiry is measured from before the acquire
   * request, so the State's own lease has already expired by then.
   */
  #release(sink: ReleaseSink | undefined): Promise<void> {
    this.#stopTimers();
    // Released while lent (its handler never took it back): owed again until the call settles.
    if (!this.#owes) {
      this.#owes = true;
      this.#manager.ioStarted();
    }
    let call: Promise<boolean> | undefined;
    try {
      call = this.#releaseCall();
    } catch (error) {
      call = Promise.reject(error);
    }
    if (call === undefined) {
      this.#releaseEnded();
      if (sink !== undefined) RESOLVED.then(() => tell(sink));
      return RESOLVED;
    }
    // Continued by callbacks: no async frame per release, and the sink is told from the same
    // callback that settles the release (no promise of its own).
    return call.then(
      () => {
        try {
          this.#manager.notifyReleased(this.#lease.key);
        } finally {
          this.#releaseEnded();
        }
        if (sink !== undefined) tell(sink);
      },
      (error: unknown) => {
        try {
          this.#observe({
            type: 'state_error',
            at: Date.now(),
            operation: 'releaseLock',
            key: this.#lease.key,
            error,
          });
        } finally {
          this.#releaseEnded();
        }
        if (sink !== undefined) tell(sink);
      },
    );
  }

  /** The release's State call; none (`undefined`) once the lease was declared lost. */
  #releaseCall(): Promise<boolean> | undefined {
    if (this.#controller.aborted) return;
    return this.#state.releaseLock(this.#lease);
  }

  /** The release settled (or sent nothing): its owed I/O ends. */
  #releaseEnded(): void {
    this.#owes = false;
    this.#manager.ioEnded();
  }

  /** Arms the timer for the next renewal, or for the local expiry when that comes first. */
  #armNext(): void {
    const interval = this.#ttlMs / 3;
    const remaining = Math.max(0, this.#localExpiresAt - Date.now());
    if (interval < remaining) this.#manager.wheel.schedule(this, interval);
    else this.#armExpiry(remaining);
  }

  #armExpiry(remaining: number): void {
    // In the lane of the full TTL: expiries are scheduled in the order of their deadlines.
    this.#manager.wheel.schedule(this, remaining, this.#ttlMs);
  }

  /**
   * The lease's timer fired: at or after the local expiry (no renewal succeeded in time) the
   * lease is lost; before it, a renewal is due.
   */
  renewDue(): void {
    if (Date.now() >= this.#localExpiresAt) {
      this.#lose('lease expired before a renewal succeeded');
      return;
    }
    void this.#renew();
  }

  async #renew(): Promise<void> {
    if (this.#releasing || this.#controller.aborted) return;
    const requestedAt = Date.now();
    // While the renewal is in flight the timer waits for the local expiry.
    this.#armExpiry(Math.max(0, this.#localExpiresAt - requestedAt));
    let renewed: boolean;
    try {
      renewed = await this.#state.renewLock(this.#lease, this.#ttlMs);
    } catch (error) {
      if (this.#releasing || this.#controller.aborted) return;
      this.#observe({
        type: 'state_error',
        at: Date.now(),
        operation: 'renewLock',
        key: this.#lease.key,
        error,
      });
      // Keep trying until the local expiry declares the lease lost.
      this.#armNext();
      return;
    }
    if (this.#releasing || this.#controller.aborted) return;
    if (!renewed) {
      this.#lose('renewal refused: the lease is held by someone else or expired');
      return;
    }
    this.#localExpiresAt = requestedAt + this.#ttlMs;
    this.#armNext();
  }

  #lose(detail: string): void {
    if (this.#releasing || this.#controller.aborted) return;
    this.#stopTimers();
    const error = new PreemptedError(this.#lease.key, detail);
    this.#observe({
      type: 'lease_lost',
      at: Date.now(),
      lockKey: this.#lease.key,
      fence: this.#lease.fence,
      error,
    });
    this.#controller.abort(error);
  }

  #stopTimers(): void {
    this.#manager.wheel.cancel(this);
  }
}
