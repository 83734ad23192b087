import { delay } from '@rt/core/adapter';
import { UnrecoverableSocketModeStartError } from '@slack/socket-mode';
import { SlackSocketModeError } from '../errors.js';
import { backoffDelay } from './backoff.js';
import type { GuardedSocketModeClient } from './guarded-client.js';
import type { ResolvedSocketModeOptions } from './options.js';

/** What the loop reports. Implementations must not throw. */
export interface ConnectionReports {
  /** Connection number `connection` (1, 2, ...) said `hello`. */
  connected(connection: number): void;
  /** A connect attempt failed (`apps.connections.open` or the WebSocket handshake). */
  connectFailed(attempt: number, retryInMs: number, error: unknown): void;
  /** An open connection closed without `stop()`; the loop reconnects after `reconnectInMs`. */
  closed(reason: string, reconnectInMs: number): void;
}

const UNRECOVERABLE: ReadonlySet<string> = new Set(
  Object.values(UnrecoverableSocketModeStartError),
);

/** Disconnect reasons after which Slack expects an immediate new connection. */
const RECONNECT_AT_ONCE: ReadonlySet<string> = new Set(['refresh_requested', 'warning']);

function slackErrorOf(error: unknown): string | undefined {
  const code = (error as { data?: { error?: unknown } } | undefined)?.data?.error;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Keeps one Socket Mode connection open, with the client's own auto-reconnect turned off (the
 * 3.1 client's reconnect lets a failed `apps.connections.open` escape as an unhandled rejection
 * and backs off without bound). Its own policy:
 * - a connect attempt that fails is retried after `backoffDelay` of the consecutive failures;
 * - a connection closed after a `refresh_requested` or `warning` disconnect frame reconnects at
 *   once; one that dropped (or closed for another reason) counts as a failure, reset to the first
 *   step when the connection had lived at least `reconnectMaxDelayMs`;
 * - `stop()` stops it for good: no attempt starts after it, a pending wait is cut short, an open
 *   connection (or one that completes after `stop()` began) is disconnected, awaited.
 */
export class ConnectionLoop {
  readonly #client: GuardedSocketModeClient;
  readonly #options: ResolvedSocketModeOptions;
  readonly #reports: ConnectionReports;
  readonly #stopping = new AbortController();
  #loop: Promise<void> | undefined;
  #firstConnect: Promise<void> | undefined;
  #connections = 0;
  /** The number of the open connection, 0 while none is. */
  #open = 0;
  #starting = false;
  #disconnectReason: string | undefined;

  constructor(
    client: GuardedSocketModeClient,
    options: ResolvedSocketModeOptions,
    reports: ConnectionReports,
  ) {
    this.#client = client;
    this.#options = options;
    this.#reports = reports;
    // The client emits these synchronously, before it hands on the next frame.
    client.on('connected', () => {
      this.#connections += 1;
      this.#open = this.#connections;
    });
    client.on('disconnected', () => {
      this.#open = 0;
    });
  }

  /**
   * The number of the open connection (1 for the first, then 2, ...), or 0 while none is open.
   * An envelope's ack is only sent on the connection it arrived on.
   */
  get openConnection(): number {
    return this.#open;
  }

  /**
   * Starts the loop (once) and resolves when the first connection said `hello`. Connect failures
   * are retried with backoff meanwhile; the first one that Slack calls unrecoverable (`invalid_auth`,
   * `not_authed`, ...) stops the loop and rejects with `SlackSocketModeError`. When `signal` aborts
   * first, the loop stops and this rejects with `signal.reason`.
   */
  start(signal: AbortSignal): Promise<void> {
    if (this.#firstConnect === undefined) {
      let resolveFirst!: () => void;
      let rejectFirst!: (error: unknown) => void;
      this.#firstConnect = new Promise<void>((resolve, reject) => {
        resolveFirst = resolve;
        rejectFirst = reject;
      });
      this.#loop = this.#run(resolveFirst, rejectFirst);
    }
    const first = this.#firstConnect;
    if (signal.aborted) {
      this.#stopping.abort();
      return Promise.reject(signal.reason);
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.#stopping.abort();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      first.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** Records the reason of a `disconnect` frame on the open connection. */
  noteDisconnectFrame(reason: string): void {
    this.#disconnectReason = reason;
  }

  /** True once `stop()` was called. */
  get stopping(): boolean {
    return this.#stopping.signal.aborted;
  }

  /**
   * Stops for good and resolves once the loop has ended and any open connection is disconnected.
   * Idempotent. Not bounded here: the client waits up to 30 s for Slack's close frame; callers
   * bound it with their own signal.
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    // A handshake in progress is cut short (the loop disconnects whatever opens anyway).
    if (this.#starting) void this.#client.disconnect();
    await this.#loop;
  }

  async #run(resolveFirst: () => void, rejectFirst: (error: unknown) => void): Promise<void> {
    const { reconnectMinDelayMs: min, reconnectMaxDelayMs: max } = this.#options;
    let failures = 0;
    let connectedOnce = false;
    while (!this.stopping) {
      try {
        this.#disconnectReason = undefined;
        this.#starting = true;
        await this.#client.start();
      } catch (error) {
        if (this.stopping) break;
        failures += 1;
        const code = slackErrorOf(error);
        if (!connectedOnce && code !== undefined && UNRECOVERABLE.has(code)) {
          rejectFirst(
            new SlackSocketModeError(`apps.connections.open refused the app token: ${code}`, {
              cause: error,
            }),
          );
          return;
        }
        const waitMs = backoffDelay(failures, min, max);
        this.#reports.connectFailed(failures, waitMs, error);
        await this.#wait(waitMs);
        continue;
      } finally {
        this.#starting = false;
      }
      if (this.stopping) break;
      connectedOnce = true;
      resolveFirst();
      this.#reports.connected(this.#connections);
      const openedAt = Date.now();
      if ((await this.#closedOrStopping()) === 'stopping') break;
      const reason = this.#disconnectReason;
      if (reason !== undefined && RECONNECT_AT_ONCE.has(reason)) failures = 0;
      else failures = Date.now() - openedAt >= max ? 1 : failures + 1;
      const waitMs = backoffDelay(failures, min, max);
      this.#reports.closed(reason ?? 'socket closed', waitMs);
      await this.#wait(waitMs);
    }
    // Stopping: close whatever is (or just became) open. The client resolves at once when idle.
    await this.#client.disconnect();
  }

  /** Resolves after `ms`, or at once when stopping. Never rejects. */
  async #wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    await delay(ms, this.#stopping.signal).catch(() => undefined);
  }

  /** Resolves when the open connection closes, or when `stop()` is called. */
  #closedOrStopping(): Promise<'closed' | 'stopping'> {
    const stopping = this.#stopping.signal;
    return new Promise((resolve) => {
      const onClosed = () => done('closed');
      const onStop = () => done('stopping');
      const done = (how: 'closed' | 'stopping') => {
        this.#client.off('disconnected', onClosed);
        stopping.removeEventListener('abort', onStop);
        resolve(how);
      };
      this.#client.once('disconnected', onClosed);
      stopping.addEventListener('abort', onStop, { once: true });
      if (stopping.aborted) onStop();
    });
  }
}
