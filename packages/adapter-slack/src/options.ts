import { DEFAULT_BODY_LIMIT_BYTES, type DispatchMode } from '@rt/core';
import type { WebClientOptions } from '@slack/web-api';
import type { SlackTokenResolver } from './normalize/installation.js';
import type { SlackShape } from './shapes.js';

/** Options of `createSlackAdapter`. Units are in the names. */
export interface SlackAdapterOptions {
  /**
   * The app's signing secret, or several during a rotation (a request signed with any of them is
   * accepted). Required; empty secrets are refused at construction.
   */
  readonly signingSecret: string | readonly string[];
  /** Bot token (`xoxb-...`) for a single-workspace app. Give this or `tokenResolver`. */
  readonly botToken?: string;
  /**
   * Multi-workspace apps: resolves the bot token of an installation. Called per outbound call
   * (cache inside it if it is slow); what it throws surfaces as `SlackTokenError`.
   */
  readonly tokenResolver?: SlackTokenResolver;
  /** Adapter name, unique per runtime; becomes `RtEvent.adapter`. Default `slack`. */
  readonly name?: string;
  /** Web API base URL (tests point it at a local fake). Default `https://slack.com/api/`. */
  readonly apiUrl?: string;
  /** Largest accepted request body; larger ones get 413 undispatched. Default 1 MiB. */
  readonly bodyLimitBytes?: number;
  /**
   * How far a request's `x-slack-request-timestamp` may be from now, either way, before it is
   * refused with 401. Default 5 minutes (Slack's own recommendation).
   */
  readonly signatureToleranceMs?: number;
  /** Text of the visible busy signal when admission is refused for capacity. */
  readonly busyText?: string;
  /** Text of the visible signal when the runtime is shutting down or its State failed. */
  readonly unavailableText?: string;
  /**
   * Time budget of each busy-signal follow-up call (`response_url` post, `views.push`,
   * `views.open`). The call is aborted when it runs out; failures become `adapter_notice`
   * observations named `busy_signal_failed`. It never delays the acknowledgement. Default 2000.
   */
  readonly busySignalTimeoutMs?: number;
  /**
   * Deadline handed to sync dispatches (view submissions, suggestions) through
   * `DispatchOptions.signal`, measured from the start of dispatch. Slack waits 3 s for the answer.
   * Default 2500.
   */
  readonly syncDeadlineMs?: number;
  /**
   * This adapter's dispatch mode per shape, merged over the defaults (`view_submission` and
   * `block_suggestion` sync). Runtime `dispatchModes` still take precedence.
   */
  readonly dispatchModes?: Readonly<Partial<Record<SlackShape, DispatchMode>>>;
  /**
   * Message subtypes acknowledged without dispatch (edits and deletions are notifications about
   * an earlier message, not new messages). Default `message_changed`, `message_deleted`,
   * `message_replied`.
   */
  readonly ignoredMessageSubtypes?: readonly string[];
  /**
   * The bot's user id; messages it wrote are acknowledged without dispatch. Unset: taken per
   * delivery from `authorizations[0].user_id` when that authorization is a bot.
   */
  readonly botUserId?: string;
  /** The bot's `bot_id`; messages carrying it are ignored like the bot user's. */
  readonly botId?: string;
  /** How many `WebClient`s (one per token) are kept; the least recently used is evicted. Default 100. */
  readonly clientCacheSize?: number;
  /** Passed to every `WebClient` (e.g. `retryConfig: { retries: 0 }` in tests). */
  readonly webClientOptions?: Omit<WebClientOptions, 'slackApiUrl'>;
  /** Messages `readHistory` returns when the caller gives no limit. Default 50. */
  readonly historyLimit?: number;
  /** Clock for signature windows and `receivedAt` (epoch ms). Default `Date.now`. */
  readonly clock?: () => number;
  /** `fetch` used for `response_url` posts and busy-signal calls. Default the global `fetch`. */
  readonly fetch?: typeof fetch;
}

/** Defaults of every optional setting. */
export const DEFAULT_SLACK_ADAPTER_OPTIONS = Object.freeze({
  name: 'slack',
  apiUrl: 'https://slack.com/api/',
  bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
  signatureToleranceMs: 5 * 60 * 1000,
  busyText: 'This app is busy right now. Please try again in a moment.',
  unavailableText: 'This app is temporarily unavailable. Please try again in a moment.',
  busySignalTimeoutMs: 2000,
  syncDeadlineMs: 2500,
  dispatchModes: Object.freeze({
    view_submission: 'sync',
    block_suggestion: 'sync',
  }) as Readonly<Partial<Record<SlackShape, DispatchMode>>>,
  ignoredMessageSubtypes: Object.freeze([
    'message_changed',
    'message_deleted',
    'message_replied',
  ]) as readonly string[],
  clientCacheSize: 100,
  historyLimit: 50,
});

/** Options with defaults filled in and validated. */
export interface ResolvedSlackOptions {
  readonly name: string;
  readonly signingSecrets: readonly string[];
  readonly tokenResolver: SlackTokenResolver;
  readonly apiUrl: string;
  readonly bodyLimitBytes: number;
  readonly signatureToleranceMs: number;
  readonly busyText: string;
  readonly unavailableText: string;
  readonly busySignalTimeoutMs: number;
  readonly syncDeadlineMs: number;
  readonly dispatchModes: Readonly<Partial<Record<SlackShape, DispatchMode>>>;
  readonly ignoredMessageSubtypes: ReadonlySet<string>;
  readonly botUserId: string | undefined;
  readonly botId: string | undefined;
  readonly clientCacheSize: number;
  readonly webClientOptions: Omit<WebClientOptions, 'slackApiUrl'>;
  readonly historyLimit: number;
  readonly clock: () => number;
  readonly fetch: typeof fetch;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function nonEmptyText(name: string, value: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new TypeError(`${name} must be a non-empty string`);
  }
  return value;
}

function signingSecretsOf(value: unknown): readonly string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (list === undefined || list.length === 0) {
    throw new TypeError('signingSecret must be a non-empty string or a non-empty array of them');
  }
  for (const secret of list) {
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new TypeError('signingSecret must not contain empty secrets');
    }
  }
  return Object.freeze([...(list as string[])]);
}

function tokenResolverOf(options: SlackAdapterOptions): SlackTokenResolver {
  const { botToken, tokenResolver } = options;
  if (botToken !== undefined && tokenResolver !== undefined) {
    throw new TypeError('give either botToken or tokenResolver, not both');
  }
  if (tokenResolver !== undefined) {
    if (typeof tokenResolver !== 'function') {
      throw new TypeError('tokenResolver must be a function (installation) => token');
    }
    return tokenResolver;
  }
  if (typeof botToken !== 'string' || botToken.length === 0) {
    throw new TypeError('botToken (a non-empty string) or tokenResolver is required');
  }
  return () => botToken;
}

/** Fills in defaults and validates; throws `TypeError`/`RangeError` naming the bad option. */
export function resolveSlackOptions(options: SlackAdapterOptions): ResolvedSlackOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createSlackAdapter needs an options object');
  }
  const d = DEFAULT_SLACK_ADAPTER_OPTIONS;
  const apiUrl = options.apiUrl ?? d.apiUrl;
  try {
    new URL(apiUrl);
  } catch {
    throw new TypeError(`apiUrl must be an absolute URL, got ${JSON.stringify(apiUrl)}`);
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('fetch must be a function');
  return Object.freeze({
    name: nonEmptyText('name', options.name ?? d.name),
    signingSecrets: signingSecretsOf(options.signingSecret),
    tokenResolver: tokenResolverOf(options),
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    bodyLimitBytes: positiveInteger('bodyLimitBytes', options.bodyLimitBytes ?? d.bodyLimitBytes),
    signatureToleranceMs: positiveInteger(
      'signatureToleranceMs',
      options.signatureToleranceMs ?? d.signatureToleranceMs,
    ),
    busyText: nonEmptyText('busyText', options.busyText ?? d.busyText),
    unavailableText: nonEmptyText('unavailableText', options.unavailableText ?? d.unavailableText),
    busySignalTimeoutMs: positiveInteger(
      'busySignalTimeoutMs',
      options.busySignalTimeoutMs ?? d.busySignalTimeoutMs,
    ),
    syncDeadlineMs: positiveInteger('syncDeadlineMs', options.syncDeadlineMs ?? d.syncDeadlineMs),
    dispatchModes: Object.freeze({ ...d.dispatchModes, ...options.dispatchModes }),
    ignoredMessageSubtypes: new Set(options.ignoredMessageSubtypes ?? d.ignoredMessageSubtypes),
    botUserId: options.botUserId,
    botId: options.botId,
    clientCacheSize: positiveInteger(
      'clientCacheSize',
      options.clientCacheSize ?? d.clientCacheSize,
    ),
    webClientOptions: { ...options.webClientOptions },
    historyLimit: positiveInteger('historyLimit', options.historyLimit ?? d.historyLimit),
    clock: options.clock ?? Date.now,
    fetch: fetchImpl,
  });
}
