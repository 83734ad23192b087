/**
 * The State's guarded access to Redis: one operation budget, no queueing while disconnected,
 * every failure surfaced as `StateUnavailableError`.
 */
import { StateClosedError, StateUnavailableError } from '@rt/core';
import { type Cluster, Redis } from 'ioredis';
import { endClient } from './end-client.js';
import type { ResolvedRedisStateOptions } from './options.js';

/** Either kind of ioredis client. */
export type RedisClient = Redis | Cluster;

/** A client plus the rules the State uses it by. */
export interface Connection {
  readonly client: RedisClient;
  /** True when the State created the client (and so quits it on close). */
  readonly owned: boolean;
  /**
   * Runs `command` within `commandTimeoutMs`: waits (inside that budget) for the client to be
   * ready, never hands a command to a disconnected client (so nothing is queued to run after the
   * caller was told it failed), and rejects with `StateUnavailableError` on timeout or on any
   * client or server error (the original error as `cause`). After `close()` it rejects with
   * `StateClosedError`.
   */
  run<T>(operation: string, command: (client: RedisClient) => Promise<T>): Promise<T>;
  /** Stops accepting operations; quits the client when owned. Idempotent. */
  close(): Promise<void>;
}

/**
 * Creates the State's own client (URL) with fail-fast settings, or wraps the caller's client.
 * The own client reconnects forever with capped exponential backoff.
 */
export function openConnection(options: ResolvedRedisStateOptions): Connection {
  if (options.client !== undefined) return new GuardedConnection(options.client, false, options);
  const client = new Redis(options.url!, {
    connectionName: 'rt-state',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: options.connectTimeoutMs,
    retryStrategy: (attempt: number) =>
      Math.min(50 * 2 ** Math.min(attempt, 10), options.maxReconnectDelayMs),
    ...options.redisOptions,
  });
  return new GuardedConnection(client, true, options);
}

/** The shared wait for the client's next `ready`. */
interface ReadyWait {
  readonly promise: Promise<void>;
  fail(reason: unknown): void;
}

class GuardedConnection implements Connection {
  readonly client: RedisClient;
  readonly owned: boolean;
  readonly #timeoutMs: number;
  #ready: ReadyWait | undefined;
  #lastError: unknown;
  #closing: Promise<void> | undefined;

  constructor(client: RedisClient, owned: boolean, options: ResolvedRedisStateOptions) {
    this.client = client;
    this.owned = owned;
    this.#timeoutMs = options.commandTimeoutMs;
    // An owned client's connection errors surface through operations; keep ioredis from logging.
    if (owned) client.on('error', (error: unknown) => this.#noteError(error));
  }

  async run<T>(operation: string, command: (client: RedisClient) => Promise<T>): Promise<T> {
    if (this.#closing !== undefined) throw new StateClosedError('redis', operation);
    const budget = new AbortController();
    const timer = setTimeout(() => {
      budget.abort(
        new StateUnavailableError(`redis ${operation} timed out after ${this.#timeoutMs} ms`, {
          cause: this.#lastError,
        }),
      );
    }, this.#timeoutMs);
    timer.unref();
    try {
      if (this.client.status !== 'ready') await this.#waitForReady(operation, budget.signal);
      budget.signal.throwIfAborted();
      return await settleOrAbort(command(this.client), budget.signal);
    } catch (error) {
      if (error instanceof StateUnavailableError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new StateUnavailableError(`redis ${operation} failed: ${message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#ready?.fail(new StateClosedError('redis', 'operation'));
    if (this.owned) await endClient(this.client, this.#timeoutMs);
  }

  /**
   * Resolves once the client is ready; rejects on budget abort, client end, or close. All waiting
   * operations share one pair of client listeners, removed when the wait ends.
   */
  async #waitForReady(operation: string, signal: AbortSignal): Promise<void> {
    if (this.client.status === 'end') {
      throw new StateUnavailableError(`redis ${operation}: connection ended`, {
        cause: this.#lastError,
      });
    }
    this.#ready ??= this.#nextReady();
    await settleOrAbort(this.#ready.promise, signal);
  }

  #nextReady(): ReadyWait {
    const client = this.client;
    let resolve!: () => void;
    let reject!: (reason: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined);
    const cleanup = () => {
      client.off('ready', onReady);
      client.off('end', onEnd);
      this.#ready = undefined;
    };
    const onReady = () => {
      cleanup();
      resolve();
    };
    const onEnd = () => {
      cleanup();
      reject(new StateUnavailableError('redis connection ended', { cause: this.#lastError }));
    };
    client.once('ready', onReady);
    client.once('end', onEnd);
    return {
      promise,
      fail(reason) {
        cleanup();
        reject(reason);
      },
    };
  }

  #noteError(error: unknown): void {
    this.#lastError = error;
  }
}

/** Settles like `work`, or rejects with `signal.reason` first; `work` is never left unhandled. */
async function settleOrAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
  });
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    work.catch(() => undefined);
  }
}
