/**
 * The pub/sub side of `waitForRelease`: one subscriber connection per State, created on the first
 * wait, listening on the layout's release channel and waking local waiters by key.
 */
import type { ReleaseWaiters } from '@rt/core/state';
import { endClient } from './end-client.js';
import { isCluster, type RedisClient } from './own-client.js';

/** Lazily subscribes to release announcements and wakes `waiters` on each. */
export class ReleaseSubscriber {
  readonly #source: RedisClient;
  readonly #channel: string;
  readonly #waiters: ReleaseWaiters;
  #subscriber: RedisClient | undefined;
  #subscribed: Promise<boolean> | undefined;
  #closed = false;

  /** `source`: the client the subscriber connection is duplicated from (the State's own). */
  constructor(source: RedisClient, channel: string, waiters: ReleaseWaiters) {
    this.#source = source;
    this.#channel = channel;
    this.#waiters = waiters;
  }

  /**
   * Starts the subscription on first call (a duplicate of the source client with an offline queue,
   * so it subscribes once connected and resubscribes after every reconnect). Resolves `true` once
   * subscribed, `false` when subscribing failed or the subscriber is closed (the next call tries
   * again, unless closed). If the subscriber connection ends for good (its client gave up
   * reconnecting), it is dropped and the next call opens a new one. While it is disconnected,
   * releases are missed: waiters still end at their timeout or their lease's lapse.
   */
  subscribed(): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    if (this.#subscribed !== undefined) return this.#subscribed;
    this.#subscriber ??= this.#open();
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
    this.#closed = true;
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    this.#subscribed = undefined;
    if (subscriber !== undefined) await endClient(subscriber, graceMs);
  }

  #open(): RedisClient {
    const subscriber = duplicateForSubscribing(this.#source);
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string, key: string) => {
      if (channel === this.#channel) this.#waiters.wake(key);
    });
    subscriber.once('end', () => {
      if (this.#subscriber !== subscriber) return;
      this.#subscriber = undefined;
      this.#subscribed = undefined;
    });
    return subscriber;
  }
}

/**
 * A new connection like `source` for pub/sub: with an offline queue (it subscribes once connected),
 * unlimited retries and `autoResubscribe` (it resubscribes after every reconnect), and no command
 * timeout (a `SUBSCRIBE` waiting for the connection is not a failure). It reconnects like
 * `source` (the State's own client, whose retry strategy never gives up). It only ever
 * subscribes, so these settings never delay a State operation.
 */
function duplicateForSubscribing(source: RedisClient): RedisClient {
  const perConnection = {
    connectionName: 'rt-state-wakeups',
    maxRetriesPerRequest: null,
    autoResubscribe: true,
    commandTimeout: undefined,
  };
  if (isCluster(source)) {
    return source.duplicate([], {
      enableOfflineQueue: true,
      lazyConnect: false,
      redisOptions: { ...source.options.redisOptions, ...perConnection },
    });
  }
  return source.duplicate({ ...perConnection, enableOfflineQueue: true, lazyConnect: false });
}
