/** The two deadlines of one delivery, both counted from its receipt. */
export interface AckClock {
  /**
   * Aborts `syncDeadlineMs` after receipt with a `TimeoutError` `DOMException`: handed to sync
   * dispatches, so a handler that honours it answers before the acknowledgement deadline.
   */
  readonly syncSignal: AbortSignal;
  /** Resolves `ackDeadlineMs` after receipt: the answer must go out by then. Never rejects. */
  readonly expired: Promise<void>;
  /** The receipt time (epoch ms, `Date.now()` clock) both deadlines count from. */
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
   * When the delivery was received (epoch ms, `Date.now()` clock); default now. A delivery read
   * from a socket some time ago has less time left: the deadlines count from here, and fire at
   * once when already past.
   */
  readonly receivedAt?: number;
}

/**
 * Starts a delivery's deadlines. Call it on receipt (or pass `receivedAt`) and `dispose` it once
 * the answer is out. The timers use the global `setTimeout` (fake timers drive them in tests) and
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
  const now = Date.now();
  const receivedAt = options.receivedAt ?? now;
  if (!Number.isFinite(receivedAt)) throw new RangeError('receivedAt must be a finite number');
  const elapsed = Math.max(0, now - receivedAt);
  let resolveExpired!: () => void;
  const expired = new Promise<void>((resolve) => {
    resolveExpired = resolve;
  });
  const ackTimer = setTimeout(resolveExpired, Math.max(0, ackDeadlineMs - elapsed));
  ackTimer.unref?.();
  let sync: AbortController | undefined;
  let syncPassed = false;
  const syncReason = () =>
    new DOMException(`sync deadline of ${syncDeadlineMs} ms passed`, 'TimeoutError');
  const syncTimer = setTimeout(
    () => {
      syncPassed = true;
      sync?.abort(syncReason());
    },
    Math.max(0, syncDeadlineMs - elapsed),
  );
  syncTimer.unref?.();
  return {
    get syncSignal() {
      if (sync === undefined) {
        sync = new AbortController();
        if (syncPassed) sync.abort(syncReason());
      }
      return sync.signal;
    },
    expired,
    receivedAt,
    dispose() {
      clearTimeout(ackTimer);
      clearTimeout(syncTimer);
    },
  };
}
