/** An `AbortSignal` that fires after a delay, and the means to disarm it. */
export interface TimeoutSignal {
  /** Aborts `ms` after creation with a `TimeoutError` `DOMException` (like `AbortSignal.timeout`). */
  readonly signal: AbortSignal;
  /** Clears the timer; the signal then never fires. Idempotent. */
  clear(): void;
}

/**
 * Like `AbortSignal.timeout(ms)`, but on the global `setTimeout` (so fake timers drive it in tests),
 * with an `unref`ed timer that never keeps the process alive, and clearable once the work is done.
 * `message` becomes the reason's message.
 */
export function timeoutSignal(ms: number, message = `timed out after ${ms} ms`): TimeoutSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new DOMException(message, 'TimeoutError'));
  }, ms);
  timer.unref?.();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
