import { delay } from '@rt/core/adapter';

export { type Deferred, deferred } from '@rt/testing';

/**
 * Resolves after `ms`, or rejects with `signal.reason` when `signal` aborts first (the kit's
 * `delay`). What the slow handlers of a flood wait on.
 */
export const pause: (ms: number, signal?: AbortSignal) => Promise<void> = delay;

/** Polls `condition` every 5 ms until it holds; the test's timeout bounds the wait. */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await pause(5);
}
