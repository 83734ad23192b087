/**
 * Marks whose outcome this State does not know: the command was handed to Redis, then the reply
 * was lost (timeout, dropped connection), so the mark may or may not be set. The State rejected
 * the caller, so nobody handled the event: a later mark that finds one of these tokens is the
 * platform's retry meeting our own lost write, and is a first mark, not a duplicate.
 */

/** One mark write (one or several Redis keys, one token) whose reply was lost. */
export interface InDoubtMark {
  /** The Redis mark keys the write named (all or none of them hold `token`). */
  readonly keys: readonly string[];
  /** The unique value the write stored in each key. */
  readonly token: string;
  /** Epoch ms after which the marks have expired in Redis anyway (the mark's TTL). */
  readonly expiresAt: number;
  /** True once the compensator removed the keys that still held `token`. */
  compensated: boolean;
}

/** Default `limit`: how many in-doubt writes one State remembers. */
export const DEFAULT_IN_DOUBT_LIMIT = 10_000;

/**
 * A bounded memory of in-doubt writes, indexed by Redis key. No timers: expired entries are
 * dropped when looked up, and all at once (a sweep) when the map is full; past `limit` the
 * oldest entry is dropped (its key then dedupes a retry, as it did before this map existed).
 */
export class InDoubtMarks {
  readonly #limit: number;
  /** Insertion order is age order. */
  readonly #all = new Set<InDoubtMark>();
  readonly #byKey = new Map<string, Set<InDoubtMark>>();

  /** `limit`: positive integer, the most entries kept. */
  constructor(limit: number = DEFAULT_IN_DOUBT_LIMIT) {
    if (!Number.isSafeInteger(limit) || limit <= 0) {
      throw new RangeError(`in-doubt limit must be a positive integer, got ${limit}`);
    }
    this.#limit = limit;
  }

  /** How many entries are held (expired ones not yet swept included). */
  get size(): number {
    return this.#all.size;
  }

  /** Remembers a write of `token` to `keys` that lives `ttlMs` from `now`. */
  add(keys: readonly string[], token: string, ttlMs: number, now: number): void {
    if (this.#all.size >= this.#limit) this.#sweep(now);
    while (this.#all.size >= this.#limit) {
      const oldest = this.#all.values().next().value as InDoubtMark;
      this.#remove(oldest);
    }
    const entry: InDoubtMark = {
      keys: Object.freeze([...keys]),
      token,
      expiresAt: now + ttlMs,
      compensated: false,
    };
    this.#all.add(entry);
    for (const key of keys) {
      let entries = this.#byKey.get(key);
      if (entries === undefined) {
        entries = new Set();
        this.#byKey.set(key, entries);
      }
      entries.add(entry);
    }
  }

  /** The tokens of live entries naming any of `keys` (empty when none is in doubt). */
  tokensFor(keys: readonly string[], now: number): string[] {
    const tokens: string[] = [];
    for (const key of keys) {
      for (const entry of this.#byKey.get(key) ?? []) {
        if (entry.expiresAt <= now) this.#remove(entry);
        else if (!tokens.includes(entry.token)) tokens.push(entry.token);
      }
    }
    return tokens;
  }

  /** Forgets every entry naming any of `keys`: a later mark of them got a definite answer. */
  settle(keys: readonly string[]): void {
    for (const key of keys) {
      for (const entry of this.#byKey.get(key) ?? []) this.#remove(entry);
    }
  }

  /** Live entries the compensator has not yet handled, oldest first. */
  uncompensated(now: number): InDoubtMark[] {
    const pending: InDoubtMark[] = [];
    for (const entry of this.#all) {
      if (entry.expiresAt <= now) this.#remove(entry);
      else if (!entry.compensated) pending.push(entry);
    }
    return pending;
  }

  #sweep(now: number): void {
    for (const entry of this.#all) if (entry.expiresAt <= now) this.#remove(entry);
  }

  #remove(entry: InDoubtMark): void {
    this.#all.delete(entry);
    for (const key of entry.keys) {
      const entries = this.#byKey.get(key);
      entries?.delete(entry);
      if (entries?.size === 0) this.#byKey.delete(key);
    }
  }
}
