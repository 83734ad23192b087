export { type Deferred, deferred } from '@rt/testing';

/**
 * Resolves after `ms`, or at once with `signal.reason` thrown when `signal` aborts (the listener
 * is removed either way). What the slow handlers of a flood wait on.
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
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

/** Polls `condition` every 5 ms until it holds; the test's timeout bounds the wait. */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await pause(5);
}
