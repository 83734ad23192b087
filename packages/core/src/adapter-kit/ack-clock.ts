/** The two deadlines of one delivery, both counted from its receipt. */
export interface AckClock {
  /**
   * Aborts `syncDeadlineMs` after receipt with a `TimeoutError` `DOMException`: handed to sync
   * dispatches, so a handler that honours it answers before the acknowledgement deadline.
   */
  readonly syncSignal: AbortSignal;
  /** Resolves `ackDeadlineMs` after receipt: the answer must go out by then. Never rejects. */
  readonly expired: Promise<void>;
  /** The receipt time (epoch ms, on the clock's `now`) both deadlines count from. */
  readonly receivedAt: number;
  /** Clears both timers (the signal and `expired` then never fire). Idempotent. */
  dispose(): void;
}

/** Options of `startAckClock`. */
export interface AckClockOptions {
  /** How long after receipt the answer must be out. A positive number. */
  readonly ackDeadlineMs: number;
  /** How long after receipt sync handlers are aborted. Positive, at most `ackDeadlineMs`. */
  readonly syncDeadlineMs: number;
  /**
   * When the delivery was received (epoch ms, read from `now`); default `now()`. A delivery read
   * some time ago has less time left: the deadlines count from here, and fire at once when already
   * past.
   */
  readonly receivedAt?: number;
  /**
   * The clock `receivedAt` was read from (the adapter's `clock` option); the time already elapsed
   * since receipt is `now() - receivedAt`, so both sides of the comparison come from one clock and
   * a skewed or fixed clock never moves a deadline. Default `Date.now`.
   */
  readonly now?: () => number;
}

/**
 * Starts a delivery's deadlines. Call it on receipt (or pass `receivedAt` with the `now` it was
 * read from) and `dispose` it once the answer is out. The timers use the global `setTimeout` (fake timers drive them in tests) and
 * are `unref`ed. Only what a delivery uses is built: two plain timers, and `syncSignal`'s
 * `AbortController` only on first read (already aborted when the sync deadline has passed), so a
 * deferred delivery, which never reads it, creates no abort signal and no listener. Throws
 * `RangeError` naming the option for a non-positive or inverted deadline.
 */
export function startAckClock(options: AckClockOptions): AckClock {
  const { ackDeadlineMs, syncDeadlineMs } = options;
  if (!Number.isFinite(ackDeadlineMs) || ackDeadlineMs <= 0) {
    throw new RangeError('ackDeadlineMs must be a positive number');
  }
  if (!Number.isFinite(syncDeadlineMs) || syncDeadlineMs <= 0 || syncDeadlineMs > ackDeadlineMs) {
    throw new RangeError('syncDeadlineMs must be a positive number, at most ackDeadlineMs');
  }
  const now = (options.now ?? Date.now)();
  if (!Number.isFinite(now)) throw new RangeError('now must return a finite number');
  const receivedAt = options.receivedAt ?? now;
  if (!Number.isFinite(receivedAt)) throw new RangeError('receivedAt must be a finite number');
  return new DeliveryClock(receivedAt, now, ackDeadlineMs, syncDeadlineMs);
}

/** Timer callbacks shared by every clock (the clock is the timer's argument, not a closure). */
function ackDue(clock: DeliveryClock): void {
  clock.ackDue();
}
function syncDue(clock: DeliveryClock): void {
  clock.syncDue();
}

/** The clock `startAckClock` returns: two timers, a promise, and a signal built on demand. */
class DeliveryClock implements AckClock {
  readonly expired: Promise<void>;
  readonly receivedAt: number;
  readonly #syncDeadlineMs: number;
  readonly #ackTimer: ReturnType<typeof setTimeout>;
  readonly #syncTimer: ReturnType<typeof setTimeout>;
  #resolveExpired!: () => void;
  #sync: AbortController | undefined;
  #syncPassed = false;

  constructor(receivedAt: number, now: number, ackDeadlineMs: number, syncDeadlineMs: number) {
    this.receivedAt = receivedAt;
    this.#syncDeadlineMs = syncDeadlineMs;
    const elapsed = Math.max(0, now - receivedAt);
    this.expired = new Promise<void>((resolve) => {
      this.#resolveExpired = resolve;
    });
    this.#ackTimer = setTimeout(ackDue, Math.max(0, ackDeadlineMs - elapsed), this);
    this.#ackTimer.unref?.();
    this.#syncTimer = setTimeout(syncDue, Math.max(0, syncDeadlineMs - elapsed), this);
    this.#syncTimer.unref?.();
  }

  get syncSignal(): AbortSignal {
    if (this.#sync === undefined) {
      this.#sync = new AbortController();
      if (this.#syncPassed) this.#sync.abort(this.#syncReason());
    }
    return this.#sync.signal;
  }

  /** The acknowledgement deadline passed. */
  ackDue(): void {
    this.#resolveExpired();
  }

  /** The sync deadline passed. */
  syncDue(): void {
    this.#syncPassed = true;
    this.#sync?.abort(this.#syncReason());
  }

  dispose(): void {
    clearTimeout(this.#ackTimer);
    clearTimeout(this.#syncTimer);
  }

  #syncReason(): DOMException {
    return new DOMException(`sync deadline of ${this.#syncDeadlineMs} ms passed`, 'TimeoutError');
  }
}
