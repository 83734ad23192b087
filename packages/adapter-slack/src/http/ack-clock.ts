import { timeoutSignal } from '@rt/core/adapter';

/** The two deadlines of one request, both counted from its receipt. */
export interface AckClock {
  /**
   * Aborts `syncDeadlineMs` after receipt with a `TimeoutError` `DOMException`: handed to sync
   * dispatches, so a handler that honours it answers before the acknowledgement deadline.
   */
  readonly syncSignal: AbortSignal;
  /** Resolves `ackDeadlineMs` after receipt: the answer must go out by then. Never rejects. */
  readonly expired: Promise<void>;
  /** Clears both timers (the signal and `expired` then never fire). Idempotent. */
  dispose(): void;
}

/**
 * Starts a request's deadlines. Call it on receipt and `dispose` it once the answer is out. The
 * timers use the global `setTimeout` (fake timers drive them in tests) and are `unref`ed.
 */
export function startAckClock(ackDeadlineMs: number, syncDeadlineMs: number): AckClock {
  const sync = timeoutSignal(syncDeadlineMs, `sync deadline of ${syncDeadlineMs} ms passed`);
  const ack = timeoutSignal(ackDeadlineMs);
  const expired = new Promise<void>((resolve) => {
    ack.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  return {
    syncSignal: sync.signal,
    expired,
    dispose() {
      sync.clear();
      ack.clear();
    },
  };
}
