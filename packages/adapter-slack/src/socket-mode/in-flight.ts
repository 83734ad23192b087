import { abortable } from '@rt/core/adapter';

/**
 * A count of envelopes read and not yet answered, and a wait for it to reach zero: what the
 * transport's shutdown needs, without a `Set` entry, a closure and a `then` per envelope (a
 * `PendingSet` tracks promises; the transport's answers never reject, so it counts them).
 */
export class InFlightCount {
  #count = 0;
  #drained: { promise: Promise<void>; resolve: () => void } | undefined;

  /** Envelopes entered and not yet left. */
  get size(): number {
    return this.#count;
  }

  /** One more envelope is being answered. */
  enter(): void {
    this.#count += 1;
  }

  /** One envelope's answer is done (sent, withheld or failed); wakes `drained` at zero. */
  leave(): void {
    this.#count -= 1;
    if (this.#count === 0 && this.#drained !== undefined) {
      const { resolve } = this.#drained;
      this.#drained = undefined;
      resolve();
    }
  }

  /**
   * Resolves once no envelope is in flight (at once when none is, whatever `signal`), however many
   * enter meanwhile. Rejects with `signal.reason` when `signal` aborts first (the answers go on).
   */
  drained(signal: AbortSignal): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    if (this.#drained === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      this.#drained = { promise, resolve };
    }
    return abortable(this.#drained.promise, signal);
  }
}
