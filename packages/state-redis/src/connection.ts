/**
 * The State's guarded access to Redis: one operation budget, no queueing while disconnected,
 * every failure surfaced as `StateUnavailableError`.
 */
import { StateClosedError, StateUnavailableError } from '@rt/core';
import { endClient } from './end-client.js';
import type { ResolvedRedisStateOptions } from './options.js';
import { createOwnClient, type RedisClient } from './own-client.js';

export type { RedisClient } from './own-client.js';

/** The State's own client plus the rules the State uses it by. */
export interface Connection {
  /** The client the State created (from the URL, or duplicated from the caller's client). */
  readonly client: RedisClient;
  /**
   * Runs `command` within `commandTimeoutMs`: waits (inside that budget) for the client to be
   * ready, connecting it first if it still waits for `connect()`, never hands a command to a
   * disconnected client (so nothing is queued to run after the caller was told it failed), and
   * rejects with `StateUnavailableError` on timeout or on any client or server error (the
   * original error as `cause`). After `close()` it rejects with `StateClosedError`.
   */
  run<T>(operation: string, command: (client: RedisClient) => Promise<T>): Promise<T>;
  /** Stops accepting operations and quits the client. Idempotent. */
  close(): Promise<void>;
}

/** Opens the State's own fail-fast client (see `createOwnClient`) and guards it. */
export function openConnection(options: ResolvedRedisStateOptions): Connection {
  return guardClient(createOwnClient(options), options.commandTimeoutMs);
}

/**
 * Guards `client`, which the returned connection owns from now on (it quits it on close). The
 * client should have the fail-fast settings; the guard alone cannot stop a command already handed
 * to ioredis from being re-sent by ioredis after a reconnect.
 */
export function guardClient(client: RedisClient, timeoutMs: number): Connection {
  return new GuardedConnection(client, timeoutMs);
}

/** The shared wait for the client's next `ready`. */
interface ReadyWait {
  readonly promise: Promise<void>;
  fail(reason: unknown): void;
}

class GuardedConnection implements Connection {
  readonly client: RedisClient;
  readonly #timeoutMs: number;
  #ready: ReadyWait | undefined;
  #lastError: unknown;
  #closing: Promise<void> | undefined;

  constructor(client: RedisClient, timeoutMs: number) {
    this.client = client;
    this.#timeoutMs = timeoutMs;
    // Connection errors surface through operations; keep ioredis from logging them.
    client.on('error', (error: unknown) => {
      this.#lastError = error;
    });
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
    await endClient(this.client, this.#timeoutMs);
  }

  /**
   * Resolves once the client is ready; rejects on budget abort, client end, or close. A client
   * still waiting for `connect()` (lazy) is connected; a failed connect surfaces as the client's
   * `end` or as the budget running out. All waiting operations share one pair of client
   * listeners, removed when the wait ends.
   */
  async #waitForReady(operation: string, signal: AbortSignal): Promise<void> {
    if (this.client.status === 'end') {
      throw new StateUnavailableError(`redis ${operation}: connection ended`, {
        cause: this.#lastError,
      });
    }
    this.#ready ??= this.#nextReady();
    if (this.client.status === 'wait') {
      this.client.connect().catch((error: unknown) => {
        this.#lastError = error;
      });
    }
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
