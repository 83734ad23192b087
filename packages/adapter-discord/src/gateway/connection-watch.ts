import type { GatewayNoticeName } from './gateway-notices.js';

/** Reports a gateway notice; never throws. */
export type GatewayNotify = (
  name: GatewayNoticeName,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
) => void;

/**
 * Turns discord.js's connection events into observations operators can alert on. Reconnects and
 * resumes are discord.js's own; a short drop is normal and says nothing. A gateway still down
 * `thresholdMs` after it dropped emits `gateway_disconnected` (once per outage), and
 * `gateway_reconnected` when it is back. An unrecoverable close (discord.js will not reconnect)
 * emits `gateway_disconnected` with `recoverable: false` at once. The timer is unref'd.
 */
export class ConnectionWatch {
  readonly #thresholdMs: number;
  readonly #notify: GatewayNotify;
  readonly #clock: () => number;
  #downSince: number | undefined;
  #alerted = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;

  constructor(thresholdMs: number, notify: GatewayNotify, clock: () => number = Date.now) {
    this.#thresholdMs = thresholdMs;
    this.#notify = notify;
    this.#clock = clock;
  }

  /** True while the connection is down (between a drop and the next READY or RESUMED). */
  get down(): boolean {
    return this.#downSince !== undefined;
  }

  /** The connection dropped and discord.js is reconnecting. Idempotent during one outage. */
  dropped(): void {
    if (this.#disposed || this.#downSince !== undefined) return;
    this.#downSince = this.#clock();
    this.#timer = setTimeout(() => this.#alert(), this.#thresholdMs);
    this.#timer.unref?.();
  }

  /** The connection closed with an unrecoverable code: discord.js gives up. */
  closedForGood(code: number): void {
    if (this.#disposed) return;
    this.#downSince ??= this.#clock();
    clearTimeout(this.#timer);
    this.#alerted = true;
    this.#notify('gateway_disconnected', { code, recoverable: false, downForMs: 0 });
  }

  /** The connection is back (READY or RESUMED). */
  restored(): void {
    if (this.#disposed || this.#downSince === undefined) return;
    clearTimeout(this.#timer);
    const downForMs = this.#clock() - this.#downSince;
    this.#downSince = undefined;
    if (this.#alerted) {
      this.#alerted = false;
      this.#notify('gateway_reconnected', { downForMs });
    }
  }

  /** Stops watching (before the adapter's own `destroy()`, which is no outage). */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }

  #alert(): void {
    if (this.#disposed || this.#downSince === undefined) return;
    this.#alerted = true;
    this.#notify('gateway_disconnected', {
      downForMs: this.#clock() - this.#downSince,
      recoverable: true,
      thresholdMs: this.#thresholdMs,
    });
  }
}
