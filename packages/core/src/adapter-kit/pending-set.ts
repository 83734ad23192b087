import { abortable } from '../util/signals.js';

/**
 * Tracks promises still running, so a lifecycle step can wait for them. Settled promises leave the
 * set by themselves; a rejection is never left unhandled by the set (the caller still gets it from
 * the promise `track` returns).
 */
export class PendingSet {
  readonly #pending = new Set<Promise<unknown>>();

  /** Promises tracked and not yet settled. */
  get size(): number {
    return this.#pending.size;
  }

  /** Tracks `promise` until it settles; returns it unchanged. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.#pending.add(promise);
    const forget = () => {
      this.#pending.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }

  /**
   * Resolves once every promise tracked so far, and every one tracked while it waits, has settled.
   * Under continuous traffic it may never resolve: lifecycle steps use `settledNow`.
   */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /**
   * Resolves once every promise tracked at the moment of the call has settled; work tracked later
   * is not waited for, so it converges however much keeps arriving. Rejects with `signal.reason`
   * when `signal` aborts first (the tracked work goes on).
   */
  settledNow(signal?: AbortSignal): Promise<void> {
    const waiting = Promise.allSettled([...this.#pending]).then(() => undefined);
    return signal === undefined ? waiting : abortable(waiting, signal);
  }
}
