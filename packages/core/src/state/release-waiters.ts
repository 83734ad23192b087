/**
 * Parked `waitForRelease` callers, by lock key. Each waiter owns a timer and an abort listener;
 * both are removed in `finally` however the wait ends, so nothing outlives it.
 */

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

/** The waiters of one State, woken by key. */
export class ReleaseWaiters {
  readonly #byKey = new Map<string, Set<Waiter>>();
  #count = 0;

  /** How many callers are waiting, across keys. */
  get size(): number {
    return this.#count;
  }

  /**
   * Resolves when `wake(key)` is called or after `timeoutMs`; rejects with `signal.reason` when
   * `signal` aborts (at once when it already has), or with the error given to `rejectAll`. The
   * timer is `unref()`ed. Aborting cancels only the wait.
   */
  async wait(key: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    let waiter!: Waiter;
    const parked = new Promise<void>((resolve, reject) => {
      waiter = { resolve, reject };
    });
    const onAbort = () => waiter.reject(signal.reason);
    let set = this.#byKey.get(key);
    if (set === undefined) {
      set = new Set();
      this.#byKey.set(key, set);
    }
    set.add(waiter);
    this.#count += 1;
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => waiter.resolve(), timeoutMs);
    timer.unref();
    try {
      await parked;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.#remove(key, waiter);
    }
  }

  /** Resolves every waiter of `key`. */
  wake(key: string): void {
    const set = this.#byKey.get(key);
    if (set === undefined) return;
    this.#byKey.delete(key);
    this.#count -= set.size;
    for (const waiter of set) waiter.resolve();
  }

  /** Rejects every waiter with `reason` (used by `close()`). */
  rejectAll(reason: unknown): void {
    const sets = [...this.#byKey.values()];
    this.#byKey.clear();
    this.#count = 0;
    for (const set of sets) for (const waiter of set) waiter.reject(reason);
  }

  #remove(key: string, waiter: Waiter): void {
    const set = this.#byKey.get(key);
    if (set === undefined || !set.delete(waiter)) return;
    this.#count -= 1;
    if (set.size === 0) this.#byKey.delete(key);
  }
}
