/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as `signal` aborts (at once when
 * it already has). The abort listener is removed when either side settles, so a long-lived signal
 * never collects listeners. Not cancelled: the work behind `promise` itself, which keeps running
 * and whose late rejection is swallowed here (it can never become an unhandled rejection).
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
