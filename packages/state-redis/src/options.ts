/**
 * Options of `createRedisState` and their frozen defaults.
 */
import type { Cluster, Redis, RedisOptions } from 'ioredis';

/** Options shared by both ways of connecting. */
export interface RedisStateCommonOptions {
  /** Prefix of every Redis key and channel the State uses. Must not contain `{` or `}`. Default `'rt:'`. */
  prefix?: string | undefined;
  /**
   * The whole budget of one operation in milliseconds, from the call until the reply: waiting for
   * the connection to be ready plus the command (and its NOSCRIPT fallback). Past it the operation
   * rejects with `StateUnavailableError`. A command already sent may still run on the server.
   * Default 1000.
   */
  commandTimeoutMs?: number | undefined;
  /**
   * How long a lock's fence key outlives its lease, in milliseconds. While it lives the next fence
   * is the last plus at least one, whatever the clocks do; after it expired the fence falls back to
   * the server clock (microseconds), which is still higher unless that clock stepped back by more
   * than this. A failover that loses the fence key leaves the fence to the new primary's clock
   * (see the README). Costs one small key per lock key used within this window. Default
   * 3_600_000 (1 h).
   */
  fenceRetentionMs?: number | undefined;
  /**
   * Milliseconds to wait for a TCP connection before the attempt counts as failed (the State's
   * connection then retries with backoff). Default 2000.
   */
  connectTimeoutMs?: number | undefined;
  /**
   * The longest pause between reconnection attempts of the State's connections, in milliseconds.
   * They reconnect forever, with exponential backoff up to this cap. Default 2000.
   */
  maxReconnectDelayMs?: number | undefined;
}

/**
 * ioredis options the State sets itself on its connections, so `redisOptions` may not name them:
 * the fail-fast settings (nothing queued while disconnected, nothing re-sent after a reconnect)
 * and the two covered by `connectTimeoutMs` and `maxReconnectDelayMs`.
 */
export const RESERVED_REDIS_OPTIONS = Object.freeze([
  'enableOfflineQueue',
  'maxRetriesPerRequest',
  'autoResendUnfulfilledCommands',
  'reconnectOnError',
  'lazyConnect',
  'commandTimeout',
  'connectTimeout',
  'retryStrategy',
] as const);

/** One of `RESERVED_REDIS_OPTIONS`. */
export type ReservedRedisOption = (typeof RESERVED_REDIS_OPTIONS)[number];

/** Connect by URL: the State creates, owns and finally quits its own client. */
export interface RedisStateUrlOptions extends RedisStateCommonOptions {
  /** A `redis://` or `rediss://` URL. */
  url: string;
  client?: never;
  /**
   * Extra ioredis options (TLS, username, password, ...). Must not name any of
   * `RESERVED_REDIS_OPTIONS` (construction throws a `TypeError`); the State's fail-fast settings
   * are applied after these in any case.
   */
  redisOptions?: Omit<RedisOptions, ReservedRedisOption> | undefined;
}

/**
 * Start from an existing client. The State never sends a command through it, never connects it
 * and never quits it: it opens its own fail-fast connection with `client.duplicate()` (same
 * servers, TLS, auth, database, key prefix; the State's fail-fast, timeout and reconnect settings
 * whatever the client's own are) and quits that on `close()`.
 */
export interface RedisStateClientOptions extends RedisStateCommonOptions {
  /** An ioredis `Redis` or `Cluster`: the template of the State's own connection. */
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
  const redisOptions = (options as { redisOptions?: unknown }).redisOptions;
  return Object.freeze({
    prefix,
    commandTimeoutMs: positive(options.commandTimeoutMs, 'commandTimeoutMs'),
    fenceRetentionMs: positive(options.fenceRetentionMs, 'fenceRetentionMs'),
    connectTimeoutMs: positive(options.connectTimeoutMs, 'connectTimeoutMs'),
    maxReconnectDelayMs: positive(options.maxReconnectDelayMs, 'maxReconnectDelayMs'),
    url: url as string | undefined,
    client: client as Redis | Cluster | undefined,
    redisOptions: checkRedisOptions(redisOptions, client !== undefined),
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

function checkRedisOptions(value: unknown, withClient: boolean): RedisOptions {
  if (value === undefined) return {};
  if (withClient) {
    throw new TypeError(
      'options.redisOptions is for options.url only: with options.client, configure the client',
    );
  }
  if (typeof value !== 'object' || value === null) {
    throw new TypeError('options.redisOptions must be an object of ioredis options');
  }
  for (const name of RESERVED_REDIS_OPTIONS) {
    if (Object.hasOwn(value, name)) {
      throw new TypeError(
        `options.redisOptions.${name} is not allowed: the State sets it on its own connection ` +
          '(fail-fast: no offline queue, no retries or re-sends after a reconnect; use ' +
          'commandTimeoutMs, connectTimeoutMs and maxReconnectDelayMs for the timings)',
      );
    }
  }
  return value as RedisOptions;
}

function isClient(value: unknown): boolean {
  const candidate = value as Partial<Redis> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.evalsha === 'function' &&
    typeof candidate.set === 'function' &&
    typeof candidate.duplicate === 'function' &&
    typeof candidate.status === 'string'
  );
}
