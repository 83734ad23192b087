import { checkAbsoluteUrl, checkPositiveInteger } from '@rt/core/adapter';
import type { SocketModeOptions } from '@slack/socket-mode';

/** How much of `@slack/socket-mode`'s own logging becomes `socket_mode_log` notices. */
export type SocketModeLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Options of the adapter's Socket Mode transport (`SlackAdapterOptions.socketMode`). */
export interface SlackSocketModeOptions {
  /**
   * The app-level token (`xapp-...`, scope `connections:write`) that opens connections. Required;
   * a value not starting with `xapp-` throws `TypeError`.
   */
  readonly appToken: string;
  /**
   * Base URL of `apps.connections.open` (tests point it at the fake of `@rt/testing/slack`).
   * Default the adapter's `apiUrl`.
   */
  readonly apiUrl?: string | undefined;
  /**
   * First wait before reconnecting after a failed connect or a dropped socket; each consecutive
   * failure doubles it (with jitter) up to `reconnectMaxDelayMs`. A `disconnect` frame asking for
   * a new connection (`refresh_requested`, `warning`) reconnects at once. Default 1000.
   */
  readonly reconnectMinDelayMs?: number | undefined;
  /** Longest wait between reconnect attempts. Default 30 000. */
  readonly reconnectMaxDelayMs?: number | undefined;
  /** How long the client waits for a pong to its pings before it drops the socket. Default 5000. */
  readonly clientPingTimeoutMs?: number | undefined;
  /** How long the client waits for Slack's next ping before it drops the socket. Default 30 000. */
  readonly serverPingTimeoutMs?: number | undefined;
  /**
   * The lowest level of the client library's log lines that become `adapter_notice`s named
   * `socket_mode_log` (`detail: { level, message }`). Default `warn`.
   */
  readonly logLevel?: SocketModeLogLevel | undefined;
  /**
   * Options of the client's own `WebClient` (it only calls `apps.connections.open`), over the
   * defaults: a 10 s timeout and no retries (the transport retries with its own backoff).
   */
  readonly clientOptions?:
    | Omit<NonNullable<SocketModeOptions['clientOptions']>, 'slackApiUrl'>
    | undefined;
}

/** Defaults of the optional Socket Mode settings. */
export const DEFAULT_SOCKET_MODE_OPTIONS = Object.freeze({
  reconnectMinDelayMs: 1000,
  reconnectMaxDelayMs: 30_000,
  clientPingTimeoutMs: 5000,
  serverPingTimeoutMs: 30_000,
  logLevel: 'warn' as SocketModeLogLevel,
  clientOptions: Object.freeze({ timeout: 10_000, retryConfig: Object.freeze({ retries: 0 }) }),
});

/** Socket Mode options with defaults filled in and validated. */
export interface ResolvedSocketModeOptions {
  readonly appToken: string;
  readonly apiUrl: string;
  readonly reconnectMinDelayMs: number;
  readonly reconnectMaxDelayMs: number;
  readonly clientPingTimeoutMs: number;
  readonly serverPingTimeoutMs: number;
  readonly logLevel: SocketModeLogLevel;
  readonly clientOptions: NonNullable<SocketModeOptions['clientOptions']>;
}

const LOG_LEVELS: readonly SocketModeLogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * Fills in defaults and validates; throws `TypeError`/`RangeError` naming the bad option
 * (`socketMode.<name>`). `adapterApiUrl` is the adapter's resolved `apiUrl`.
 */
export function resolveSocketModeOptions(
  options: SlackSocketModeOptions,
  adapterApiUrl: string,
): ResolvedSocketModeOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('socketMode must be an options object with an appToken');
  }
  const { appToken } = options;
  if (typeof appToken !== 'string' || !appToken.startsWith('xapp-')) {
    throw new TypeError('socketMode.appToken must be an app-level token (xapp-...)');
  }
  const d = DEFAULT_SOCKET_MODE_OPTIONS;
  const apiUrl = checkAbsoluteUrl('socketMode.apiUrl', options.apiUrl ?? adapterApiUrl);
  const min = checkPositiveInteger(
    'socketMode.reconnectMinDelayMs',
    options.reconnectMinDelayMs ?? d.reconnectMinDelayMs,
  );
  const max = checkPositiveInteger(
    'socketMode.reconnectMaxDelayMs',
    options.reconnectMaxDelayMs ?? Math.max(min, d.reconnectMaxDelayMs),
  );
  if (max < min) {
    throw new RangeError(
      `socketMode.reconnectMaxDelayMs (${max}) must be at least reconnectMinDelayMs (${min})`,
    );
  }
  const logLevel = options.logLevel ?? d.logLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new TypeError(
      `socketMode.logLevel must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`,
    );
  }
  return Object.freeze({
    appToken,
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    reconnectMinDelayMs: min,
    reconnectMaxDelayMs: max,
    clientPingTimeoutMs: checkPositiveInteger(
      'socketMode.clientPingTimeoutMs',
      options.clientPingTimeoutMs ?? d.clientPingTimeoutMs,
    ),
    serverPingTimeoutMs: checkPositiveInteger(
      'socketMode.serverPingTimeoutMs',
      options.serverPingTimeoutMs ?? d.serverPingTimeoutMs,
    ),
    logLevel,
    clientOptions: { ...d.clientOptions, ...options.clientOptions },
  });
}
