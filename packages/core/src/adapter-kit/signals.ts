/**
 * AbortSignal helpers, the one place rt keeps them. Every helper removes the listeners it adds, so
 * long-lived signals (the runtime's shutdown signal) never accumulate listeners from finished work.
 */

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

/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as `signal` aborts (at once when
 * it already has). The abort listener is removed when either side settles. Not cancelled: the work
 * behind `promise` itself, which keeps running and whose late rejection is swallowed here (it can
 * never become an unhandled rejection).
 */
export function abortable<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      Promise.resolve(promise).then(undefined, () => {});
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Aborts `target` with the source's reason as soon as any of `sources` aborts (at once when one is
 * already aborted). Returns a function that detaches every listener; call it when done.
 */
export function forwardAbort(target: AbortController, sources: readonly AbortSignal[]): () => void {
  const detachers: (() => void)[] = [];
  for (const source of sources) {
    if (source.aborted) {
      target.abort(source.reason);
      break;
    }
    const onAbort = () => target.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    detachers.push(() => source.removeEventListener('abort', onAbort));
  }
  const detach = () => {
    for (const remove of detachers.splice(0)) remove();
  };
  if (target.signal.aborted) detach();
  return detach;
}

/**
 * A signal that aborts with the reason of the first of `sources` to abort (`undefined` entries are
 * skipped; at once when one already has). Unlike `AbortSignal.any`, its listeners on the sources
 * are removed by `dispose()`, and also as soon as it aborts: call `dispose` when the work it
 * guards is done. Replaces the hand-written "wait on several signals" idiom.
 */
export function anySignal(sources: readonly (AbortSignal | undefined)[]): {
  readonly signal: AbortSignal;
  dispose(): void;
} {
  const controller = new AbortController();
  const present = sources.filter((source): source is AbortSignal => source !== undefined);
  const detach = forwardAbort(controller, present);
  controller.signal.addEventListener('abort', detach, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      detach();
      controller.signal.removeEventListener('abort', detach);
    },
  };
}

/**
 * Resolves after `ms`, or rejects with `signal.reason` when `signal` aborts first. The timer and
 * the listener are removed either way.
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
