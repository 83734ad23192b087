/** One cached bot token: the token, its expiry (epoch ms, if it rotates) and the cache's own expiry. */
export interface CachedToken {
  readonly token: string;
  readonly expiresAtMs: number | undefined;
  readonly cachedUntilMs: number;
}

/**
 * A bounded least-recently-used map of installation key to bot token. Past `capacity` the least
 * recently used entry is dropped; `delete` drops one at once (uninstall, revocation).
 */
export class TokenCache {
  readonly #capacity: number;
  readonly #entries = new Map<string, CachedToken>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): CachedToken | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedToken): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#capacity) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
