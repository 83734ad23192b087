import { abortable } from '../util/signals.js';

/**
 * The promises tracked between two `settledNow` calls: a count and the one callback each of
 * them settles through (no closure, set entry or table per tracked promise).
 */
interface Generation {
  readonly id: number;
  count: number;
  readonly settle: () => void;
}

/** A `settledNow` call waiting for every generation up to `id`. */
interface Waiter {
  readonly id: number;
  readonly resolve: () => void;
}

/**
 * Tracks promises still running, so a lifecycle step can wait for them. Settled promises leave by
 * themselves; a rejection is never left unhandled by the set (the caller still gets it from the
 * promise `track` returns). Kept as counts per generation (the promises tracked between two
 * `settledNow` calls), so tracking a promise costs one reaction on it and nothing else.
 */
export class PendingSet {
  #size = 0;
  #nextId = 0;
  #current = this.#newGeneration();
  /** Generations with promises still pending, oldest first (the current one last, when it has). */
  readonly #pending: Generation[] = [];
  /** `settledNow` calls waiting, in call order (so by rising `id`). */
  readonly #waiters: Waiter[] = [];

  /** Promises tracked and not yet settled. */
  get size(): number {
    return this.#size;
  }

  /** Tracks `promise` until it settles; returns it unchanged. */
  track<T>(promise: Promise<T>): Promise<T> {
    const generation = this.#current;
    if (generation.count === 0) this.#pending.push(generation);
    generation.count += 1;
    this.#size += 1;
    promise.then(generation.settle, generation.settle);
    return promise;
  }

  /**
   * Resolves once every promise tracked so far, and every one tracked while it waits, has settled.
   * Under continuous traffic it may never resolve: lifecycle steps use `settledNow`.
   */
  async settled(): Promise<void> {
    while (this.#size > 0) await this.settledNow();
  }

  /**
   * Resolves once every promise tracked at the moment of the call has settled; work tracked later
   * is not waited for, so it converges however much keeps arriving. Rejects with `signal.reason`
   * when `signal` aborts first (the tracked work goes on).
   */
  settledNow(signal?: AbortSignal): Promise<void> {
    let waiting: Promise<void>;
    if (this.#size === 0) waiting = Promise.resolve();
    else {
      // Promises tracked from now on belong to a newer generation, which this call does not wait for.
      const id = this.#current.id;
      this.#current = this.#newGeneration();
      waiting = new Promise<void>((resolve) => this.#waiters.push({ id, resolve }));
    }
    return signal === undefined ? waiting : abortable(waiting, signal);
  }

  #newGeneration(): Generation {
    const generation: Generation = {
      id: this.#nextId,
      count: 0,
      settle: () => this.#settledOne(generation),
    };
    this.#nextId += 1;
    return generation;
  }

  /** One promise of `generation` settled. */
  #settledOne(generation: Generation): void {
    this.#size -= 1;
    generation.count -= 1;
    if (generation.count > 0) return;
    const pending = this.#pending;
    pending.splice(pending.indexOf(generation), 1);
    // Every waiter for a generation older than the oldest still pending is done.
    const oldest = pending.length === 0 ? Number.POSITIVE_INFINITY : pending[0]!.id;
    const waiters = this.#waiters;
    let done = 0;
    while (done < waiters.length && waiters[done]!.id < oldest) done += 1;
    for (const waiter of waiters.splice(0, done)) waiter.resolve();
  }
}
