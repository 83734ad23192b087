/**
 * The waiting half of rt's one family of signal helpers (the other half is `Cancellation`, in
 * `cancellation.ts`): every helper takes a `CancelSource`, a platform `AbortSignal` or a lazy
 * `Cancellation` alike, so the hot path waits without building an `AbortSignal` and adapters wait
 * on the signals they are given. Every helper removes the listeners it adds, so long-lived sources
 * (the runtime's shutdown) never accumulate listeners from finished work.
 */
import { Cancellation, type CancelSource, listen, noop } from './cancellation.js';

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

/** The first of `source` and `also` that has aborted, if any. */
function abortedOf(
  source: CancelSource | undefined,
  also: CancelSource | undefined,
): CancelSource | undefined {
  if (source?.aborted) return source;
  return also?.aborted ? also : undefined;
}

/**
 * Settles like `promise`, or rejects with the reason of `source` (or of `also`, a second source
 * that ends the wait too) as soon as one aborts (at once when one already has). The listeners are
 * removed as soon as either side settles or aborts. Not cancelled: the work behind `promise`
 * itself, which keeps running and whose late rejection is swallowed here (it can never become an
 * unhandled rejection).
 */
export function abortable<T>(
  promise: PromiseLike<T>,
  source: CancelSource,
  also?: CancelSource,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const ended = abortedOf(source, also);
    if (ended !== undefined) {
      Promise.resolve(promise).then(undefined, noop);
      reject(ended.reason);
      return;
    }
    const onAbort = (reason: unknown) => {
      detach();
      detachAlso();
      reject(reason);
    };
    const detach = listen(source, onAbort);
    const detachAlso = also === undefined ? noop : listen(also, onAbort);
    Promise.resolve(promise).then(
      (value) => {
        detach();
        detachAlso();
        resolve(value);
      },
      (error: unknown) => {
        detach();
        detachAlso();
        reject(error);
      },
    );
  });
}

/**
 * Resolves after `ms`, or rejects with the reason of `source` (or of `also`) when one aborts
 * first (at once when one already has). The timer and the listeners are removed either way.
 */
export function delay(ms: number, source?: CancelSource, also?: CancelSource): Promise<void> {
  return new Promise((resolve, reject) => {
    const ended = abortedOf(source, also);
    if (ended !== undefined) {
      reject(ended.reason);
      return;
    }
    const onAbort = (reason: unknown) => {
      clearTimeout(timer);
      detach();
      detachAlso();
      reject(reason);
    };
    const detach = source === undefined ? noop : listen(source, onAbort);
    const detachAlso = also === undefined ? noop : listen(also, onAbort);
    const timer = setTimeout(() => {
      detach();
      detachAlso();
      resolve();
    }, ms);
  });
}

/**
 * A signal that aborts with the reason of the first of `sources` to abort (`undefined` entries are
 * skipped; at once when one already has). Unlike `AbortSignal.any`, its listeners on the sources
 * are removed by `dispose()`, and also as soon as it aborts: call `dispose` when the work it
 * guards is done. Replaces the hand-written "wait on several signals" race.
 */
export function anySignal(sources: readonly (CancelSource | undefined)[]): {
  readonly signal: AbortSignal;
  dispose(): void;
} {
  const any = new Cancellation();
  const detach = any.follow(sources);
  const stopListening = any.onAbort(detach);
  return {
    signal: any.signal,
    dispose: () => {
      detach();
      stopListening();
    },
  };
}
