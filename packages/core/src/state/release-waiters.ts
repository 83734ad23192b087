/**
 * Parked `waitForRelease` callers, by lock key. Each waiter owns a timer and an abort listener;
 * both are removed in `finally` however the wait ends, so nothing outlives it.
 */

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

/** Options of `ReleaseWaiters`. */
export interface ReleaseWaitersOptions {
  /**
   * Whether a wait keeps the process alive. Default `false`: the timer is `unref()`ed (a State's
   * waiters never hold a process open). The runtime's lock manager sets it, because a parked
   * waiter is accepted work.
   */
  readonly keepAlive?: boolean;
}

/** Parked callers woken by key: a State's `waitForRelease`, and the runtime's lock manager. */
export class ReleaseWaiters {
  readonly #byKey = new Map<string, Set<Waiter>>();
  readonly #keepAlive: boolean;
  #count = 0;

  constructor(options: ReleaseWaitersOptions = {}) {
    this.#keepAlive = options.keepAlive === true;
  }

  /** How many callers are waiting, across keys. */
  get size(): number {
    return this.#count;
  }

  /** How many keys have someone waiting (a key without waiters is forgotten at once). */
  get keys(): number {
    return this.#byKey.size;
  }

  /**
   * Resolves when `wake(key)` is called or after `timeoutMs`; rejects with `signal.reason` when
   * `signal` aborts (at once when it already has), or with the error given to `rejectAll`. The
   * timer is `unref()`ed unless `keepAlive` was set. Aborting cancels only the wait.
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
    if (!this.#keepAlive) timer.unref();
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
