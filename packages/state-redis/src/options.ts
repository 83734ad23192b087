/**
 * Options of `createRedisState` and their frozen defaults.
 */
import type { Cluster, Redis, RedisOptions } from 'ioredis';

/** Options shared by both ways of connecting. */
export interface RedisStateCommonOptions {
  /** Prefix of every Redis key and channel the State uses. Must not contain `{` or `}`. Default `'rt:'`. */
  prefix?: string;
  /**
   * The whole budget of one operation in milliseconds, from the call until the reply: waiting for
   * the connection to be ready plus the command (and its NOSCRIPT fallback). Past it the operation
   * rejects with `StateUnavailableError`. A command already sent may still run on the server.
   * Default 1000.
   */
  commandTimeoutMs?: number;
  /**
   * How long a lock's fence key outlives its lease, in milliseconds. While it lives the next fence
   * is the last plus at least one, whatever the clocks do; after it expired the fence falls back to
   * the server clock (microseconds), which is still higher unless that clock stepped back by more
   * than this. Costs one small key per lock key used within this window. Default 3_600_000 (1 h).
   */
  fenceRetentionMs?: number;
}

/** Connect by URL: the State creates, owns and finally quits its own client. */
export interface RedisStateUrlOptions extends RedisStateCommonOptions {
  /** A `redis://` or `rediss://` URL. */
  url: string;
  client?: never;
  /**
   * Milliseconds to wait for a TCP connection before the attempt counts as failed (the client
   * then retries with backoff). Default 2000.
   */
  connectTimeoutMs?: number;
  /** The longest pause between reconnection attempts, in milliseconds. Default 2000. */
  maxReconnectDelayMs?: number;
  /**
   * Extra ioredis options (TLS, username, password, ...). Applied after the State's fail-fast
   * settings (`enableOfflineQueue: false`, `maxRetriesPerRequest: 0`,
   * `autoResendUnfulfilledCommands: false`), which you should not override.
   */
  redisOptions?: RedisOptions;
}

/** Use an existing client: the caller owns its lifecycle; `close()` never quits it. */
export interface RedisStateClientOptions extends RedisStateCommonOptions {
  /** An ioredis `Redis` or `Cluster`. Fail-fast settings are recommended (see the README). */
  client: Redis | Cluster;
  url?: never;
}

/** Either a URL or a client. */
export type RedisStateOptions = RedisStateUrlOptions | RedisStateClientOptions;

/** The defaults of `createRedisState`. */
export const DEFAULT_REDIS_STATE_OPTIONS = Object.freeze({
  prefix: 'rt:',
  commandTimeoutMs: 1000,
  fenceRetentionMs: 3_600_000,
  connectTimeoutMs: 2000,
  maxReconnectDelayMs: 2000,
});

/** Validated options with every default filled in. */
export interface ResolvedRedisStateOptions {
  readonly prefix: string;
  readonly commandTimeoutMs: number;
  readonly fenceRetentionMs: number;
  readonly connectTimeoutMs: number;
  readonly maxReconnectDelayMs: number;
  readonly url: string | undefined;
  readonly client: Redis | Cluster | undefined;
  readonly redisOptions: RedisOptions;
}

/** Fills defaults and validates; throws `TypeError`/`RangeError` naming the bad option. */
export function resolveRedisStateOptions(options: RedisStateOptions): ResolvedRedisStateOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createRedisState needs options: { url } or { client }');
  }
  const { url, client } = options as { url?: unknown; client?: unknown };
  if ((url === undefined) === (client === undefined)) {
    throw new TypeError('createRedisState needs exactly one of options.url and options.client');
  }
  if (url !== undefined && (typeof url !== 'string' || !/^rediss?:\/\//.test(url))) {
    throw new TypeError('options.url must be a redis:// or rediss:// URL');
  }
  if (client !== undefined && !isClient(client)) {
    throw new TypeError('options.client must be an ioredis Redis or Cluster client');
  }
  const prefix = options.prefix ?? DEFAULT_REDIS_STATE_OPTIONS.prefix;
  if (typeof prefix !== 'string' || /[{}]/.test(prefix)) {
    throw new TypeError('options.prefix must be a string without "{" or "}"');
  }
  const urlOptions = options as Partial<RedisStateUrlOptions>;
  return Object.freeze({
    prefix,
    commandTimeoutMs: positive(options.commandTimeoutMs, 'commandTimeoutMs'),
    fenceRetentionMs: positive(options.fenceRetentionMs, 'fenceRetentionMs'),
    connectTimeoutMs: positive(urlOptions.connectTimeoutMs, 'connectTimeoutMs'),
    maxReconnectDelayMs: positive(urlOptions.maxReconnectDelayMs, 'maxReconnectDelayMs'),
    url: url as string | undefined,
    client: client as Redis | Cluster | undefined,
    redisOptions: urlOptions.redisOptions ?? {},
  });
}

function positive(value: unknown, name: keyof typeof DEFAULT_REDIS_STATE_OPTIONS): number {
  if (value === undefined) return DEFAULT_REDIS_STATE_OPTIONS[name] as number;
  if (typeof value !== 'number') throw new TypeError(`options.${name} must be a number`);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `options.${name} must be a positive integer of milliseconds, got ${value}`,
    );
  }
  return value;
}

function isClient(value: unknown): boolean {
  const candidate = value as Partial<Redis> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.evalsha === 'function' &&
    typeof candidate.set === 'function' &&
    typeof candidate.status === 'string'
  );
}
