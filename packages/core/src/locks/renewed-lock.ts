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

/** Timer callbacks shared by every lock (arguments, not closures, carry the lock). */
function renewDue(lock: RenewedLock): void {
  lock.renewDue();
}
function expiryDue(lock: RenewedLock): void {
  lock.expiryDue();
}

/**
 * A lease plus its renewal loop. Its two timers (renewal, local expiry) are reusable nodes on the
 * manager's timer wheel, re-armed like `setTimeout`s, never keeping the process alive; the lock
 * is its own renewal timer (it extends `WheelTimer`), so only the expiry is a second node.
 */
export class RenewedLock extends WheelTimer<RenewedLock> implements HeldLock {
  readonly #manager: LockManager;
  readonly #state: State;
  readonly #lease: Lease;
  readonly #ttlMs: number;
  readonly #observe: (observation: Observation) => void;
  readonly #controller = new Cancellation();
  #localExpiresAt: number;
  readonly #expiryTimer = new WheelTimer(expiryDue, this);
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
    super(renewDue);
    this.#manager = manager;
    this.#state = state;
    this.#lease = lease;
    this.#ttlMs = ttlMs;
    this.#observe = observe;
    // Measured from before the request: never later than the State's own expiry.
    this.#localExpiresAt = requestedAt + ttlMs;
    this.#armExpiry();
    this.#armRenewal();
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

  #armRenewal(): void {
    this.#manager.wheel.schedule(this, this.#ttlMs / 3);
  }

  #armExpiry(): void {
    const remaining = Math.max(0, this.#localExpiresAt - Date.now());
    // In the lane of the full TTL: expiries are scheduled in the order of their deadlines.
    this.#manager.wheel.schedule(this.#expiryTimer, remaining, this.#ttlMs);
  }

  /** The renewal timer fired. */
  renewDue(): void {
    void this.#renew();
  }

  /** The local expiry timer fired before a renewal succeeded. */
  expiryDue(): void {
    this.#lose('lease expired before a renewal succeeded');
  }

  async #renew(): Promise<void> {
    if (this.#releasing || this.#controller.aborted) return;
    const requestedAt = Date.now();
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
      // Keep trying until the local expiry timer declares the lease lost.
      this.#armRenewal();
      return;
    }
    if (this.#releasing || this.#controller.aborted) return;
    if (!renewed) {
      this.#lose('renewal refused: the lease is held by someone else or expired');
      return;
    }
    this.#localExpiresAt = requestedAt + this.#ttlMs;
    this.#armExpiry();
    this.#armRenewal();
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
    this.#manager.wheel.cancel(this.#expiryTimer);
  }
}
