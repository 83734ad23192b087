import type { KeyObject } from 'node:crypto';
import type { RESTOptions } from '@discordjs/rest';
import type { DispatchMode, RtEvent } from '@rt/core';
import {
  type AnswerOptions,
  checkAbsoluteUrl,
  checkNonEmptyText,
  checkOptionsObject,
  checkPositiveInteger,
  DEFAULT_ANSWER_OPTIONS,
  DEFAULT_BODY_LIMIT_BYTES,
  type ResolvedAnswerOptions,
  resolveAnswerOptions,
} from '@rt/core/adapter';
import type { DiscordGatewayOptions } from './gateway/gateway-options.js';
import type { DiscordStreamOptions } from './outbound/stream-writer.js';
import { DISCORD_SHAPES, type DiscordShape } from './shapes.js';
import { DEFAULT_SIGNATURE_TOLERANCE_MS } from './verify/freshness.js';
import { importPublicKey } from './verify/public-key.js';

/**
 * Whether the type 5 acknowledgement of an interaction (and the follow-ups `reply` sends for it) is
 * ephemeral. Decided before the ack, since Discord fixes it there for good.
 */
export type EphemeralDecision = boolean | ((event: RtEvent) => boolean);

/**
 * Options of `createDiscordAdapter`. Units are in the names. The answer options (`busyText`,
 * `unavailableText`, `busySignalTimeoutMs`, `ackDeadlineMs`, `syncDeadlineMs`, `dispatchModes`,
 * `clock`) are the adapter kit's `AnswerOptions`; on Discord the late busy signals are an
 * `@original` edit or a follow-up, the ack limit is Discord's 3 s (then it shows "The application
 * did not respond"), and the sync dispatches are autocompletes and any shape made sync.
 */
export interface DiscordAdapterOptions extends AnswerOptions<DiscordShape> {
  /**
   * The application's public key (64 hex characters, Developer Portal → General Information).
   * Required to use the HTTP interactions `handler` (every request's Ed25519 signature is checked
   * with it); a gateway-only bot may omit it. Given but malformed, it throws at construction.
   */
  readonly publicKey?: string | undefined;
  /** The application id (a snowflake). Required. */
  readonly applicationId: string;
  /**
   * The bot token, for channel messages, threads, reactions and history (the same name as the
   * Slack adapter's). Interaction follow-ups and `@original` edits use the interaction's own token
   * and work without it. Required.
   */
  readonly botToken?: string;
  /** @deprecated The old name of `botToken`, still accepted. */
  readonly token?: string;
  /** Adapter name, unique per runtime; becomes `RtEvent.adapter`. Default `discord`. */
  readonly name?: string | undefined;
  /** REST base URL, passed to `@discordjs/rest` as `api` (tests point it at a local fake). Default `https://discord.com/api`. */
  readonly apiUrl?: string | undefined;
  /**
   * Passed to the `@discordjs/rest` client over `DEFAULT_REST_OPTIONS` key by key (`api` and
   * `version` are set by the adapter).
   */
  readonly restOptions?: Partial<Omit<RESTOptions, 'api' | 'version'>> | undefined;
  /** Largest accepted request body; larger ones get 413 undispatched. Default 1 MiB. */
  readonly bodyLimitBytes?: number | undefined;
  /**
   * Largest distance, either way, between an interaction's `X-Signature-Timestamp` and the
   * adapter's `clock`. A request outside it is refused with 401 before its body is read, and a
   * `signature_rejected` notice with `reason: 'stale_timestamp'`, so a captured request cannot be
   * replayed after the dedupe marks expire. Default 15 minutes (an interaction token's life).
   */
  readonly signatureToleranceMs?: number | undefined;
  /**
   * Whether deferred answers to commands (type 5) are ephemeral: a boolean for all, or a function
   * of the event deciding per command (it runs before the ack; if it throws, the answer is
   * ephemeral and an `ephemeral_decision_failed` notice is emitted). Default `false`.
   */
  readonly ephemeral?: EphemeralDecision | undefined;
  /** Text answered (ephemeral) to a command or modal no handler is registered for. */
  readonly unroutedText?: string | undefined;
  /**
   * This adapter's dispatch mode per shape, merged over the defaults (`autocomplete` sync: its
   * choices are the answer). Make `application_command` or `modal_submit` sync to answer with a
   * modal (type 9) or a message from the handler's return value. Runtime `dispatchModes` still
   * take precedence. An unknown shape or mode throws `TypeError`.
   */
  readonly dispatchModes?: Readonly<Partial<Record<DiscordShape, DispatchMode>>> | undefined;
  /**
   * Commands (chat-input or context-menu names) dispatched sync whatever `dispatchModes` says, so
   * their handler's return value is the answer: a command that opens a modal (type 9) among
   * deferred ones. Runtime `dispatchModes` still take precedence. Default none.
   */
  readonly syncCommands?: readonly string[] | undefined;
  /** Messages `readHistory` returns when the caller gives no limit. Default 50. */
  readonly historyLimit?: number | undefined;
  /**
   * Also receive over the gateway (a long-lived `discord.js` Client started by `runtime.start()`):
   * `true` for the defaults, or its options (`DiscordGatewayOptions`). Default: HTTP only (the
   * gateway, and discord.js, are never loaded).
   */
  readonly gateway?: DiscordGatewayOptions | boolean | undefined;
  /** How `ctx.stream` writes on Discord: the pace of its edits and the typing indicator. */
  readonly stream?: DiscordStreamOptions | undefined;
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
  signatureToleranceMs: DEFAULT_SIGNATURE_TOLERANCE_MS,
  ephemeral: false as EphemeralDecision,
  ...DEFAULT_ANSWER_OPTIONS,
  unroutedText: 'This app does not handle that here.',
  dispatchModes: Object.freeze({ autocomplete: 'sync' }) as Readonly<
    Partial<Record<DiscordShape, DispatchMode>>
  >,
  historyLimit: 50,
});

/** Options with defaults filled in and validated. */
export interface ResolvedDiscordOptions extends ResolvedAnswerOptions<DiscordShape> {
  readonly name: string;
  /** `undefined` when none was given: the HTTP handler then refuses to be used. */
  readonly publicKey: KeyObject | undefined;
  readonly applicationId: string;
  readonly token: string;
  readonly apiUrl: string;
  readonly restOptions: Partial<RESTOptions>;
  readonly bodyLimitBytes: number;
  readonly signatureToleranceMs: number;
  readonly ephemeral: EphemeralDecision;
  readonly unroutedText: string;
  readonly syncCommands: ReadonlySet<string>;
  readonly historyLimit: number;
}

/** How Discord is answered: within its 3 s, dispatch modes per Discord shape. */
const DISCORD_ANSWERS = Object.freeze({
  name: 'Discord',
  ackLimitMs: 3000,
  shapes: DISCORD_SHAPES,
  dispatchModes: DEFAULT_DISCORD_ADAPTER_OPTIONS.dispatchModes,
});

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
  checkOptionsObject('createDiscordAdapter', options);
  const d = DEFAULT_DISCORD_ADAPTER_OPTIONS;
  const apiUrl = checkAbsoluteUrl('apiUrl', options.apiUrl ?? d.apiUrl);
  if (typeof options.applicationId !== 'string' || !/^\d{1,25}$/.test(options.applicationId)) {
    throw new TypeError('applicationId must be the application id (a snowflake of digits)');
  }
  return Object.freeze({
    name: checkNonEmptyText('name', options.name ?? d.name),
    publicKey: options.publicKey === undefined ? undefined : importPublicKey(options.publicKey),
    applicationId: options.applicationId,
    token: checkNonEmptyText('botToken', options.botToken ?? options.token),
    apiUrl: apiUrl.replace(/\/+$/, ''),
    restOptions: { ...DEFAULT_REST_OPTIONS, ...options.restOptions },
    bodyLimitBytes: checkPositiveInteger(
      'bodyLimitBytes',
      options.bodyLimitBytes ?? d.bodyLimitBytes,
    ),
    signatureToleranceMs: checkPositiveInteger(
      'signatureToleranceMs',
      options.signatureToleranceMs ?? d.signatureToleranceMs,
    ),
    ephemeral: ephemeralOf(options.ephemeral ?? d.ephemeral),
    ...resolveAnswerOptions(options, DISCORD_ANSWERS),
    unroutedText: checkNonEmptyText('unroutedText', options.unroutedText ?? d.unroutedText),
    syncCommands: syncCommandsOf(options.syncCommands),
    historyLimit: checkPositiveInteger('historyLimit', options.historyLimit ?? d.historyLimit),
  });
}
