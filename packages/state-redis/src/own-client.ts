/**
 * The State's own connection to Redis, created from a URL or duplicated from the caller's client,
 * always with the fail-fast settings: nothing waits in an offline queue, nothing is retried or
 * re-sent after a reconnect, so an operation reported as failed is never sent again later.
 */
import { type Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { ResolvedRedisStateOptions } from './options.js';

/** Either kind of ioredis client. */
export type RedisClient = Redis | Cluster;

/** `CLIENT SETNAME` of the State's command connection(s). */
export const STATE_CONNECTION_NAME = 'rt-state';

/**
 * True for an ioredis `Cluster`. Duck-typed on the `isCluster` flag ioredis sets, so it holds for
 * a client made by another copy of ioredis than this package's (where `instanceof` would not).
 */
export function isCluster(client: RedisClient): client is Cluster {
  return (client as { isCluster?: unknown }).isCluster === true;
}

/**
 * Creates the client the State runs its commands on, which the State owns and quits on close:
 * from `options.url` (with `options.redisOptions` under the fail-fast settings), or as
 * `options.client.duplicate(...)` with the fail-fast settings over the client's own. The caller's
 * client is only a template: it is never connected, used or quit here.
 */
export function createOwnClient(options: ResolvedRedisStateOptions): RedisClient {
  const source = options.client;
  if (source === undefined) {
    return new Redis(options.url!, { ...options.redisOptions, ...failFastOptions(options) });
  }
  if (isCluster(source)) return source.duplicate([], failFastClusterOptions(source, options));
  return source.duplicate(failFastOptions(options));
}

/** Reconnect forever, 100 ms doubling up to `maxReconnectDelayMs`. */
function backoff(maxDelayMs: number): (attempt: number) => number {
  return (attempt) => Math.min(50 * 2 ** Math.min(attempt, 10), maxDelayMs);
}

/** Settings of one fail-fast `Redis` connection. */
function failFastOptions(options: ResolvedRedisStateOptions): RedisOptions {
  return {
    connectionName: STATE_CONNECTION_NAME,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    reconnectOnError: null,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: options.connectTimeoutMs,
    retryStrategy: backoff(options.maxReconnectDelayMs),
  };
}

/**
 * Settings of a fail-fast `Cluster`: no cluster-level offline queue; a command whose node
 * connection closed (`retryDelayOnFailover`) or that met `CLUSTERDOWN` fails instead of being
 * re-sent later; `TRYAGAIN` (not executed) is retried without delay, at most `maxRedirections`
 * times. Node connections get the per-connection settings that ioredis lets a cluster pass down
 * (ioredis always gives nodes an offline queue, lazy connect and the node retry strategy).
 */
function failFastClusterOptions(
  source: Cluster,
  options: ResolvedRedisStateOptions,
): ClusterOptions {
  const { retryStrategy: _ignored, lazyConnect: _lazy, ...perNode } = failFastOptions(options);
  return {
    lazyConnect: false,
    enableOfflineQueue: false,
    retryDelayOnFailover: 0,
    retryDelayOnClusterDown: 0,
    retryDelayOnTryAgain: 0,
    clusterRetryStrategy: backoff(options.maxReconnectDelayMs),
    redisOptions: { ...source.options.redisOptions, ...perNode },
  };
}
