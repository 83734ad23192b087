import type { ReleaseWaiters } from '@rt/core';
/**
 * The pub/sub side of `waitForRelease`: one subscriber connection per State, created on the first
 * wait, listening on the layout's release channel and waking local waiters by key.
 */
import { Cluster } from 'ioredis';
import type { RedisClient } from './connection.js';
import { endClient } from './end-client.js';

/** Lazily subscribes to release announcements and wakes `waiters` on each. */
export class ReleaseSubscriber {
  readonly #source: RedisClient;
  readonly #channel: string;
  readonly #waiters: ReleaseWaiters;
  #subscriber: RedisClient | undefined;
  #subscribed: Promise<boolean> | undefined;

  constructor(source: RedisClient, channel: string, waiters: ReleaseWaiters) {
    this.#source = source;
    this.#channel = channel;
    this.#waiters = waiters;
  }

  /**
   * Starts the subscription on first call (a duplicate of the source client with an offline queue,
   * so it subscribes once connected and resubscribes after every reconnect). Resolves `true` once
   * subscribed, `false` when subscribing failed (the next call tries again).
   */
  subscribed(): Promise<boolean> {
    if (this.#subscribed !== undefined) return this.#subscribed;
    if (this.#subscriber === undefined) {
      const subscriber = duplicateForSubscribing(this.#source);
      subscriber.on('error', () => undefined);
      subscriber.on('message', (channel: string, key: string) => {
        if (channel === this.#channel) this.#waiters.wake(key);
      });
      this.#subscriber = subscriber;
    }
    const attempt = this.#subscriber.subscribe(this.#channel).then(
      () => true,
      () => {
        if (this.#subscribed === attempt) this.#subscribed = undefined;
        return false;
      },
    );
    this.#subscribed = attempt;
    return attempt;
  }

  /** Ends the subscriber connection, if one was made, and waits until it is gone. Idempotent. */
  async close(graceMs: number): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    this.#subscribed = undefined;
    if (subscriber !== undefined) await endClient(subscriber, graceMs);
  }
}

/**
 * A new connection like `source` for pub/sub: with an offline queue (it subscribes once connected)
 * and unlimited retries (it resubscribes after every reconnect). It only ever subscribes, so these
 * settings never delay a State operation.
 */
function duplicateForSubscribing(source: RedisClient): RedisClient {
  if (source instanceof Cluster) {
    return source.duplicate(undefined, {
      enableOfflineQueue: true,
      redisOptions: {
        ...source.options.redisOptions,
        connectionName: 'rt-state-wakeups',
        maxRetriesPerRequest: null,
        autoResubscribe: true,
      },
    });
  }
  return source.duplicate({
    connectionName: 'rt-state-wakeups',
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    autoResubscribe: true,
    lazyConnect: false,
  });
}
