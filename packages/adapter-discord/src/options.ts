import type { KeyObject } from 'node:crypto';
import type { RESTOptions } from '@discordjs/rest';
import { DEFAULT_BODY_LIMIT_BYTES, type DispatchMode, type RtEvent } from '@rt/core';
import type { DiscordGatewayOptions } from './gateway/gateway-options.js';
import { DISCORD_SHAPES, type DiscordShape, isDiscordShape } from './shapes.js';
import { importPublicKey } from './verify/public-key.js';

/**
 * Whether the type 5 acknowledgement of an interaction (and the follow-ups `reply` sends for it) is
 * ephemeral. Decided before the ack, since Discord fixes it there for good.
 */
export type EphemeralDecision = boolean | ((event: RtEvent) => boolean);

/** Options of `createDiscordAdapter`. Units are in the names. */
export interface DiscordAdapterOptions {
  /** The application's public key (64 hex characters, Developer Portal → General Information). Required. */
  readonly publicKey: string;
  /** The application id (a snowflake). Required. */
  readonly applicationId: string;
  /**
   * The bot token, for channel messages, threads, reactions and history. Interaction follow-ups
   * and `@original` edits use the interaction's own token and work without it. Required.
   */
  readonly token: string;
  /** Adapter name, unique per runtime; becomes `RtEvent.adapter`. Default `discord`. */
  readonly name?: string;
  /** REST base URL, passed to `@discordjs/rest` as `api` (tests point it at a local fake). Default `https://discord.com/api`. */
  readonly apiUrl?: string;
  /**
   * Passed to the `@discordjs/rest` client over `DEFAULT_REST_OPTIONS` key by key (`api` and
   * `version` are set by the adapter).
   */
  readonly restOptions?: Partial<Omit<RESTOptions, 'api' | 'version'>>;
  /** Largest accepted request body; larger ones get 413 undispatched. Default 1 MiB. */
  readonly bodyLimitBytes?: number;
  /**
   * Whether deferred answers to commands (type 5) are ephemeral: a boolean for all, or a function
   * of the event deciding per command (it runs before the ack; if it throws, the answer is
   * ephemeral and an `ephemeral_decision_failed` notice is emitted). Default `false`.
   */
  readonly ephemeral?: EphemeralDecision;
  /** Text of the visible busy signal when admission is refused for capacity. */
  readonly busyText?: string;
  /** Text of the visible signal when the runtime is shutting down or its State failed. */
  readonly unavailableText?: string;
  /** Text answered (ephemeral) to a command or modal no handler is registered for. */
  readonly unroutedText?: string;
  /**
   * Time budget of each late busy signal (an `@original` edit or a follow-up telling the user that
   * an acknowledged interaction was dropped). Failures become `busy_signal_failed` notices. Default 2000.
   */
  readonly busySignalTimeoutMs?: number;
  /**
   * The latest moment, counted from the request's receipt, at which a dispatched interaction is
   * answered (Discord waits 3 s, then shows "The application did not respond"). When the dispatch
   * has not produced its answer by then, the refusal with `unavailableText` is sent, an
   * `ack_deadline_passed` notice emitted, and the dispatch goes on without a second answer. A
   * positive integer, at most 3000. Default 2500.
   */
  readonly ackDeadlineMs?: number;
  /**
   * When the abort signal of sync dispatches (autocomplete; any shape made sync) fires, counted
   * from receipt. Below `ackDeadlineMs`. Default 80 % of `ackDeadlineMs` (2000).
   */
  readonly syncDeadlineMs?: number;
  /**
   * This adapter's dispatch mode per shape, merged over the defaults (`autocomplete` sync: its
   * choices are the answer). Make `application_command` or `modal_submit` sync to answer with a
   * modal (type 9) or a message from the handler's return value. Runtime `dispatchModes` still
   * take precedence. An unknown shape or mode throws `TypeError`.
   */
  readonly dispatchModes?: Readonly<Partial<Record<DiscordShape, DispatchMode>>>;
  /**
   * Commands (chat-input or context-menu names) dispatched sync whatever `dispatchModes` says, so
   * their handler's return value is the answer: a command that opens a modal (type 9) among
   * deferred ones. Runtime `dispatchModes` still take precedence. Default none.
   */
  readonly syncCommands?: readonly string[];
  /** Messages `readHistory` returns when the caller gives no limit. Default 50. */
  readonly historyLimit?: number;
  /** Clock for `receivedAt` (epoch ms). Default `Date.now`. */
  readonly clock?: () => number;
  /**
   * Also receive over the gateway (a long-lived `discord.js` Client started by `runtime.start()`):
   * `true` for the defaults, or its options (`DiscordGatewayOptions`). Default: HTTP only (the
   * gateway, and discord.js, are never loaded).
   */
  readonly gateway?: DiscordGatewayOptions | boolean;
}

/**
 * The REST policy the adapter applies unless `restOptions` overrides it. The library's defaults
 * (a 15 s timeout and three retries of every 5xx or reset, waiting out any rate limit) let one
 * handler's call hold its admission slot for a minute or more during a Discord outage. Here: each
 * attempt is cut at 5 s and retried once; a rate limit longer than 5 s rejects at once
 * (`RateLimitError`) instead of waiting. The hash and handler sweepers keep their defaults.
 */
export const DEFAULT_REST_OPTIONS: Readonly<Partial<RESTOptions>> = Object.freeze({
  retries: 1,
  timeout: 5000,
  rejectOnRateLimit: (data: { readonly retryAfter: number }) => data.retryAfter > 5000,
});

/** Defaults of every optional setting. */
export const DEFAULT_DISCORD_ADAPTER_OPTIONS = Object.freeze({
  name: 'discord',
  apiUrl: 'https://discord.com/api',
  bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
  ephemeral: false as EphemeralDecision,
  busyText: 'This app is busy right now. Please try again in a moment.',
  unavailableText: 'This app is temporarily unavailable. Please try again in a moment.',
  unroutedText: 'This app does not handle that here.',
  busySignalTimeoutMs: 2000,
  ackDeadlineMs: 2500,
  syncDeadlineMs: 2000,
  dispatchModes: Object.freeze({ autocomplete: 'sync' }) as Readonly<
    Partial<Record<DiscordShape, DispatchMode>>
  >,
  historyLimit: 50,
});

/** Options with defaults filled in and validated. */
export interface ResolvedDiscordOptions {
  readonly name: string;
  readonly publicKey: KeyObject;
  readonly applicationId: string;
  readonly token: string;
  readonly apiUrl: string;
  readonly restOptions: Partial<RESTOptions>;
  readonly bodyLimitBytes: number;
  readonly ephemeral: EphemeralDecision;
  readonly busyText: string;
  readonly unavailableText: string;
  readonly unroutedText: string;
  readonly busySignalTimeoutMs: number;
  readonly ackDeadlineMs: number;
  readonly syncDeadlineMs: number;
  readonly dispatchModes: Readonly<Partial<Record<DiscordShape, DispatchMode>>>;
  readonly syncCommands: ReadonlySet<string>;
  readonly historyLimit: number;
  readonly clock: () => number;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function nonEmptyText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new TypeError(`${name} must be a non-empty string`);
  }
  return value;
}

/** Discord's own limit on the first answer, counted from its sending of the request. */
const DISCORD_ACK_LIMIT_MS = 3000;

function deadlinesOf(options: DiscordAdapterOptions): {
  ackDeadlineMs: number;
  syncDeadlineMs: number;
} {
  const d = DEFAULT_DISCORD_ADAPTER_OPTIONS;
  const ackDeadlineMs = positiveInteger('ackDeadlineMs', options.ackDeadlineMs ?? d.ackDeadlineMs);
  if (ackDeadlineMs > DISCORD_ACK_LIMIT_MS) {
    throw new RangeError(
      `ackDeadlineMs must be at most ${DISCORD_ACK_LIMIT_MS} (Discord waits 3 s), got ${ackDeadlineMs}`,
    );
  }
  const syncDeadlineMs = positiveInteger(
    'syncDeadlineMs',
    options.syncDeadlineMs ?? Math.max(1, Math.floor(ackDeadlineMs * 0.8)),
  );
  if (syncDeadlineMs >= ackDeadlineMs) {
    throw new RangeError(
      `syncDeadlineMs must be below ackDeadlineMs (${ackDeadlineMs}), got ${syncDeadlineMs}`,
    );
  }
  return { ackDeadlineMs, syncDeadlineMs };
}

function dispatchModesOf(value: unknown): Partial<Record<DiscordShape, DispatchMode>> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('dispatchModes must be an object of shape → "sync" | "deferred"');
  }
  for (const [shape, mode] of Object.entries(value)) {
    if (!isDiscordShape(shape)) {
      throw new TypeError(
        `dispatchModes names an unknown shape ${JSON.stringify(shape)} (expected one of ${DISCORD_SHAPES.join(', ')})`,
      );
    }
    if (mode !== 'sync' && mode !== 'deferred') {
      throw new TypeError(
        `dispatchModes.${shape} must be "sync" or "deferred", got ${JSON.stringify(mode)}`,
      );
    }
  }
  return value as Partial<Record<DiscordShape, DispatchMode>>;
}

function syncCommandsOf(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set();
  if (
    !Array.isArray(value) ||
    value.some((name) => typeof name !== 'string' || name.length === 0)
  ) {
    throw new TypeError('syncCommands must be an array of non-empty command names');
  }
  return new Set(value.map((name: string) => name.replace(/^\//, '')));
}

function ephemeralOf(value: unknown): EphemeralDecision {
  if (typeof value === 'boolean' || typeof value === 'function') return value as EphemeralDecision;
  throw new TypeError('ephemeral must be a boolean or a function (event) => boolean');
}

/** Fills in defaults and validates; throws `TypeError`/`RangeError` naming the bad option. */
export function resolveDiscordOptions(options: DiscordAdapterOptions): ResolvedDiscordOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createDiscordAdapter needs an options object');
  }
  const d = DEFAULT_DISCORD_ADAPTER_OPTIONS;
  const apiUrl = options.apiUrl ?? d.apiUrl;
  try {
    new URL(apiUrl);
  } catch {
    throw new TypeError(`apiUrl must be an absolute URL, got ${JSON.stringify(apiUrl)}`);
  }
  if (typeof options.applicationId !== 'string' || !/^\d{1,25}$/.test(options.applicationId)) {
    throw new TypeError('applicationId must be the application id (a snowflake of digits)');
  }
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function')
    throw new TypeError('clock must be a function returning epoch ms');
  return Object.freeze({
    name: nonEmptyText('name', options.name ?? d.name),
    publicKey: importPublicKey(options.publicKey),
    applicationId: options.applicationId,
    token: nonEmptyText('token', options.token),
    apiUrl: apiUrl.replace(/\/+$/, ''),
    restOptions: { ...DEFAULT_REST_OPTIONS, ...options.restOptions },
    bodyLimitBytes: positiveInteger('bodyLimitBytes', options.bodyLimitBytes ?? d.bodyLimitBytes),
    ephemeral: ephemeralOf(options.ephemeral ?? d.ephemeral),
    busyText: nonEmptyText('busyText', options.busyText ?? d.busyText),
    unavailableText: nonEmptyText('unavailableText', options.unavailableText ?? d.unavailableText),
    unroutedText: nonEmptyText('unroutedText', options.unroutedText ?? d.unroutedText),
    busySignalTimeoutMs: positiveInteger(
      'busySignalTimeoutMs',
      options.busySignalTimeoutMs ?? d.busySignalTimeoutMs,
    ),
    ...deadlinesOf(options),
    dispatchModes: Object.freeze({ ...d.dispatchModes, ...dispatchModesOf(options.dispatchModes) }),
    syncCommands: syncCommandsOf(options.syncCommands),
    historyLimit: positiveInteger('historyLimit', options.historyLimit ?? d.historyLimit),
    clock,
  });
}
