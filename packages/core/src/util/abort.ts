/**
 * Small AbortSignal helpers that always remove their listeners, so long-lived signals (the
 * runtime's shutdown signal) never accumulate listeners from finished deliveries.
 */

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
  return () => {
    for (const detach of detachers) detach();
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
