import type { WebClient } from '@slack/web-api';

/**
 * A bounded least-recently-used cache of `WebClient`s, one per token (each client holds its own
 * request queue and keep-alive agent). Past `capacity` the least recently used is dropped.
 */
export class WebClientCache {
  readonly #capacity: number;
  readonly #create: (token: string) => WebClient;
  readonly #clients = new Map<string, WebClient>();

  constructor(capacity: number, create: (token: string) => WebClient) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`capacity must be a positive integer, got ${String(capacity)}`);
    }
    this.#capacity = capacity;
    this.#create = create;
  }

  /** Clients currently cached. */
  get size(): number {
    return this.#clients.size;
  }

  /** The client for `token`, created on first use. */
  get(token: string): WebClient {
    const cached = this.#clients.get(token);
    if (cached !== undefined) {
      this.#clients.delete(token);
      this.#clients.set(token, cached);
      return cached;
    }
    const client = this.#create(token);
    this.#clients.set(token, client);
    if (this.#clients.size > this.#capacity) {
      const oldest = this.#clients.keys().next().value as string;
      this.#clients.delete(oldest);
    }
    return client;
  }
}
