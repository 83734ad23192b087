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
  /** Clears its timer (the signal and `expired` then never fire). Idempotent. */
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
 * read from) and `dispose` it once the answer is out. The timer uses the global `setTimeout`
 * (fake timers drive it in tests) and is `unref`ed. Only what a delivery uses is built: one plain
 * timer at a time (armed for the sync deadline, then re-armed for the rest of the time to the
 * acknowledgement deadline), `expired`'s promise only on first read, and `syncSignal`'s
 * `AbortController` only on first read (already aborted when the sync deadline has passed), so a
 * deferred delivery answered in time arms one timer and builds no promise, abort signal or
 * listener. Throws `RangeError` naming the option for a non-positive or inverted deadline.
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

/** What `onAckDeadline` tells when a clock's acknowledgement deadline passes. */
export interface AckDeadlineListener {
  ackDeadlinePassed(): void;
}

/**
 * Tells `listener` when `clock`'s acknowledgement deadline passes (on a later turn if it already
 * has), unless the clock is disposed first: the kit's own race (`answerWithin`), without
 * `expired`'s promise or a closure for a clock `startAckClock` built; another `AckClock`
 * implementation is asked through `expired`.
 */
export function onAckDeadline(clock: AckClock, listener: AckDeadlineListener): void {
  if (clock instanceof DeliveryClock) clock.listen(listener);
  else void clock.expired.then(() => listener.ackDeadlinePassed());
}

/** The one timer callback, shared by every clock (the clock is the timer's argument). */
function due(clock: DeliveryClock): void {
  clock.due();
}

/**
 * The clock `startAckClock` returns. Both deadlines are fixed, in timer time, at construction
 * (`syncInMs`, `ackInMs` from now, from the elapsed time on the adapter's clock), and one timer
 * at a time runs toward the next.
 */
class DeliveryClock implements AckClock {
  readonly receivedAt: number;
  readonly #syncDeadlineMs: number;
  /** Timer time from the sync deadline to the acknowledgement deadline. */
  readonly #ackAfterSyncMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expired: Promise<void> | undefined;
  #resolveExpired: (() => void) | undefined;
  #listeners: AckDeadlineListener | AckDeadlineListener[] | undefined;
  #sync: AbortController | undefined;
  #syncPassed = false;
  #ackPassed = false;

  constructor(receivedAt: number, now: number, ackDeadlineMs: number, syncDeadlineMs: number) {
    this.receivedAt = receivedAt;
    this.#syncDeadlineMs = syncDeadlineMs;
    const elapsed = Math.max(0, now - receivedAt);
    const syncInMs = Math.max(0, syncDeadlineMs - elapsed);
    this.#ackAfterSyncMs = Math.max(0, ackDeadlineMs - elapsed) - syncInMs;
    this.#arm(syncInMs);
  }

  get expired(): Promise<void> {
    if (this.#expired === undefined) {
      if (this.#ackPassed) this.#expired = Promise.resolve();
      else
        this.#expired = new Promise<void>((resolve) => {
          this.#resolveExpired = resolve;
        });
    }
    return this.#expired;
  }

  get syncSignal(): AbortSignal {
    if (this.#sync === undefined) {
      this.#sync = new AbortController();
      if (this.#syncPassed) this.#sync.abort(this.#syncReason());
    }
    return this.#sync.signal;
  }

  /** Adds a deadline listener (see `onAckDeadline`). */
  listen(listener: AckDeadlineListener): void {
    if (this.#ackPassed) {
      queueMicrotask(() => listener.ackDeadlinePassed());
      return;
    }
    const listeners = this.#listeners;
    if (listeners === undefined) this.#listeners = listener;
    else if (Array.isArray(listeners)) listeners.push(listener);
    else this.#listeners = [listeners, listener];
  }

  /** The timer fired: the sync deadline, then (re-armed) the acknowledgement deadline. */
  due(): void {
    this.#timer = undefined;
    if (!this.#syncPassed) {
      this.#syncPassed = true;
      this.#sync?.abort(this.#syncReason());
      if (this.#ackAfterSyncMs > 0) {
        this.#arm(this.#ackAfterSyncMs);
        return;
      }
    }
    this.#ackPassed = true;
    this.#resolveExpired?.();
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners === undefined) return;
    if (!Array.isArray(listeners)) listeners.ackDeadlinePassed();
    else for (const listener of listeners) listener.ackDeadlinePassed();
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#listeners = undefined;
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(due, delayMs, this);
    this.#timer.unref?.();
  }

  #syncReason(): DOMException {
    return new DOMException(`sync deadline of ${this.#syncDeadlineMs} ms passed`, 'TimeoutError');
  }
}
