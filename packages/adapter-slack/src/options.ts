import type { DispatchMode } from '@rt/core';
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
import type { WebClientOptions } from '@slack/web-api';
import type { SlackInstallationSource } from './installs/installation-source.js';
import type { SlackTokenResolver } from './normalize/installation.js';
import type { MentionAndMessage } from './normalize/message-identity.js';
import type { SlackStreamOptions } from './outbound/stream-options.js';
import { SLACK_SHAPES, type SlackShape } from './shapes.js';
import {
  type ResolvedSocketModeOptions,
  resolveSocketModeOptions,
  type SlackSocketModeOptions,
} from './socket-mode/options.js';

/**
 * Options of `createSlackAdapter`. Units are in the names. The answer options (`busyText`,
 * `unavailableText`, `busySignalTimeoutMs`, `ackDeadlineMs`, `syncDeadlineMs`, `dispatchModes`,
 * `clock`) are the adapter kit's `AnswerOptions`; on Slack the late busy signals are
 * `response_url` posts, `views.push` and `views.open`, the ack limit is Slack's 3 s (an Events API
 * delivery whose mark lands after its late 503 is handled once, and Slack's retry is a
 * duplicate), the sync dispatches are view submissions and suggestions, and the clock also times
 * signature windows.
 */
export interface SlackAdapterOptions extends AnswerOptions<SlackShape> {
  /**
   * The app's signing secret, or several during a rotation (a request signed with any of them is
   * accepted). Required to use the HTTP `handler` (reading it throws without one); a Socket Mode
   * app may leave it out. Empty secrets are refused at construction.
   */
  readonly signingSecret?: string | readonly string[] | undefined;
  /** Bot token (`xoxb-...`) for a single-workspace app. Give this or `tokenResolver`. */
  readonly botToken?: string | undefined;
  /**
   * Multi-workspace apps: resolves the bot token of an installation. Called per outbound call
   * (cache inside it if it is slow); what it throws surfaces as `SlackTokenError`.
   */
  readonly tokenResolver?: SlackTokenResolver | undefined;
  /**
   * Multi-workspace apps with an installation store (`@rt/slack-installs`): tokens come from it,
   * every delivery's installation is checked before dispatch, and `app_uninstalled` /
   * `tokens_revoked` delete what Slack revoked. Give this, `tokenResolver` or `botToken`.
   */
  readonly installations?: SlackInstallationSource | undefined;
  /**
   * Shown to a user whose workspace is not (or no longer) installed, where a reply without the
   * workspace's token is possible (slash commands, message buttons). Default: "This app is not
   * installed in this workspace. Ask a workspace admin to install it."
   */
  readonly notInstalledText?: string | undefined;
  /** Adapter name, unique per runtime; becomes `RtEvent.adapter`. Default `slack`. */
  readonly name?: string | undefined;
  /** Web API base URL (tests point it at a local fake). Default `https://slack.com/api/`. */
  readonly apiUrl?: string | undefined;
  /** Largest accepted request body; larger ones get 413 undispatched. Default 1 MiB. */
  readonly bodyLimitBytes?: number | undefined;
  /**
   * How far a request's `x-slack-request-timestamp` may be from now, either way, before it is
   * refused with 401. Default 5 minutes (Slack's own recommendation).
   */
  readonly signatureToleranceMs?: number | undefined;
  /**
   * This adapter's dispatch mode per shape (`'sync'` or `'deferred'`), merged over the defaults
   * (`view_submission` and `block_suggestion` sync). Runtime `dispatchModes` still take
   * precedence. An unknown shape or mode throws `TypeError`.
   */
  readonly dispatchModes?: Readonly<Partial<Record<SlackShape, DispatchMode>>> | undefined;
  /**
   * Message subtypes acknowledged without dispatch (edits and deletions are notifications about
   * an earlier message, not new messages). Default `message_changed`, `message_deleted`,
   * `message_replied`.
   */
  readonly ignoredMessageSubtypes?: readonly string[] | undefined;
  /**
   * The bot's user id; messages it wrote are acknowledged without dispatch. Unset: taken per
   * delivery from `authorizations[0].user_id` when that authorization is a bot.
   */
  readonly botUserId?: string | undefined;
  /** The bot's `bot_id`; messages carrying it are ignored like the bot user's. */
  readonly botId?: string | undefined;
  /**
   * An app subscribed to both `app_mention` and `message.*` receives a message that mentions the
   * bot twice, under two event ids. `'mention-wins'` (default): one handler run per message, by
   * the mention handlers: both copies share the message's identity `(channel, ts)`, the `message`
   * copy is dispatched as a `mention` (falling back to `message` handlers when there are no
   * mention handlers), and whichever copy arrives second is acknowledged as a duplicate. Needs
   * the bot user (`botUserId`, else the delivery's bot authorization) to recognise the mention.
   * `'both'`: the copies are distinct identities and each runs its own handlers. Anything else
   * throws `TypeError`.
   */
  readonly mentionAndMessage?: MentionAndMessage | undefined;
  /** How many `WebClient`s (one per token) are kept; the least recently used is evicted. Default 100. */
  readonly clientCacheSize?: number | undefined;
  /**
   * Passed to every `WebClient`, over `DEFAULT_WEB_CLIENT_OPTIONS` (a 10 s request timeout, two
   * retries within 30 s) key by key: a `retryConfig` given here replaces the default one whole.
   */
  readonly webClientOptions?: Omit<WebClientOptions, 'slackApiUrl'> | undefined;
  /** Messages `readHistory` returns when the caller gives no limit. Default 50. */
  readonly historyLimit?: number | undefined;
  /** `fetch` used for `response_url` posts and busy-signal calls. Default the global `fetch`. */
  readonly fetch?: typeof fetch | undefined;
  /**
   * Receive deliveries over Socket Mode (no public URL): `runtime.start()` opens the connection,
   * `runtime.shutdown()` closes it after the busy acks are out (see the README's Socket Mode
   * section). Unset: HTTP only.
   */
  readonly socketMode?: SlackSocketModeOptions | undefined;
  /** How `ctx.stream` writes on Slack: native streaming or `chat.update`, and their pace. */
  readonly stream?: SlackStreamOptions | undefined;
}

/**
 * The `WebClient` policy the adapter applies unless `webClientOptions` overrides it. The library's
 * own defaults (no request timeout, ten retries over about 30 minutes) would let a handler's call
 * hold its admission slot for half an hour during a Slack outage. Here: each HTTP attempt is cut
 * at 10 s; a failed attempt (network error, timeout, non-200, 429 after its `Retry-After` wait) is
 * retried at most twice, after about 1 s and 2 s, and never once 30 s have passed since the first
 * attempt. `ok: false` answers are not retried (the library never retries them).
 */
export const DEFAULT_WEB_CLIENT_OPTIONS: Readonly<Omit<WebClientOptions, 'slackApiUrl'>> =
  Object.freeze({
    timeout: 10_000,
    retryConfig: Object.freeze({
      retries: 2,
      factor: 2,
      minTimeout: 1000,
      maxTimeout: 5000,
      maxRetryTime: 30_000,
      randomize: true,
    }),
  });

/** Defaults of every optional setting. */
export const DEFAULT_SLACK_ADAPTER_OPTIONS = Object.freeze({
  name: 'slack',
  apiUrl: 'https://slack.com/api/',
  bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
  signatureToleranceMs: 5 * 60 * 1000,
  ...DEFAULT_ANSWER_OPTIONS,
  dispatchModes: Object.freeze({
    view_submission: 'sync',
    block_suggestion: 'sync',
  }) as Readonly<Partial<Record<SlackShape, DispatchMode>>>,
  ignoredMessageSubtypes: Object.freeze([
    'message_changed',
    'message_deleted',
    'message_replied',
  ]) as readonly string[],
  mentionAndMessage: 'mention-wins' as MentionAndMessage,
  clientCacheSize: 100,
  webClientOptions: DEFAULT_WEB_CLIENT_OPTIONS,
  historyLimit: 50,
  notInstalledText:
    'This app is not installed in this workspace. Ask a workspace admin to install it.',
});

/** Options with defaults filled in and validated. */
export interface ResolvedSlackOptions extends ResolvedAnswerOptions<SlackShape> {
  readonly name: string;
  /** Empty when no `signingSecret` was given (the HTTP handler is then unavailable). */
  readonly signingSecrets: readonly string[];
  readonly tokenResolver: SlackTokenResolver;
  /** The installation source, when tokens come from an installation store. */
  readonly installations: SlackInstallationSource | undefined;
  readonly notInstalledText: string;
  readonly apiUrl: string;
  readonly bodyLimitBytes: number;
  readonly signatureToleranceMs: number;
  readonly ignoredMessageSubtypes: ReadonlySet<string>;
  readonly botUserId: string | undefined;
  readonly botId: string | undefined;
  readonly mentionAndMessage: MentionAndMessage;
  readonly clientCacheSize: number;
  readonly webClientOptions: Omit<WebClientOptions, 'slackApiUrl'>;
  readonly historyLimit: number;
  readonly fetch: typeof fetch;
  /** `undefined` when the adapter serves HTTP only. */
  readonly socketMode: ResolvedSocketModeOptions | undefined;
}

function signingSecretsOf(value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
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

function installationsOf(options: SlackAdapterOptions): SlackInstallationSource | undefined {
  const { installations } = options;
  if (installations === undefined) return undefined;
  if (options.botToken !== undefined || options.tokenResolver !== undefined) {
    throw new TypeError('give one of botToken, tokenResolver or installations');
  }
  if (
    typeof installations !== 'object' ||
    installations === null ||
    typeof installations.botToken !== 'function' ||
    typeof installations.revoke !== 'function'
  ) {
    throw new TypeError('installations must be an object with botToken() and revoke()');
  }
  return installations;
}

function tokenResolverOf(options: SlackAdapterOptions): SlackTokenResolver {
  const { botToken, tokenResolver } = options;
  const installations = installationsOf(options);
  if (installations !== undefined) return (installation) => installations.botToken(installation);
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

/** How Slack is answered: within its 3 s, dispatch modes per Slack shape. */
const SLACK_ANSWERS = Object.freeze({
  name: 'Slack',
  ackLimitMs: 3000,
  shapes: SLACK_SHAPES,
  dispatchModes: DEFAULT_SLACK_ADAPTER_OPTIONS.dispatchModes,
});

const MENTION_AND_MESSAGE: readonly string[] = ['mention-wins', 'both'];

function mentionAndMessageOf(value: unknown): MentionAndMessage {
  if (!MENTION_AND_MESSAGE.includes(value as string)) {
    throw new TypeError(
      `mentionAndMessage must be "mention-wins" or "both", got ${JSON.stringify(value)}`,
    );
  }
  return value as MentionAndMessage;
}

/** Fills in defaults and validates; throws `TypeError`/`RangeError` naming the bad option. */
export function resolveSlackOptions(options: SlackAdapterOptions): ResolvedSlackOptions {
  checkOptionsObject('createSlackAdapter', options);
  const d = DEFAULT_SLACK_ADAPTER_OPTIONS;
  const apiUrl = checkAbsoluteUrl('apiUrl', options.apiUrl ?? d.apiUrl);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('fetch must be a function');
  return Object.freeze({
    name: checkNonEmptyText('name', options.name ?? d.name),
    signingSecrets: signingSecretsOf(options.signingSecret),
    tokenResolver: tokenResolverOf(options),
    installations: installationsOf(options),
    notInstalledText: checkNonEmptyText(
      'notInstalledText',
      options.notInstalledText ?? d.notInstalledText,
    ),
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    bodyLimitBytes: checkPositiveInteger(
      'bodyLimitBytes',
      options.bodyLimitBytes ?? d.bodyLimitBytes,
    ),
    signatureToleranceMs: checkPositiveInteger(
      'signatureToleranceMs',
      options.signatureToleranceMs ?? d.signatureToleranceMs,
    ),
    ...resolveAnswerOptions(options, SLACK_ANSWERS),
    ignoredMessageSubtypes: new Set(options.ignoredMessageSubtypes ?? d.ignoredMessageSubtypes),
    botUserId: options.botUserId,
    botId: options.botId,
    mentionAndMessage: mentionAndMessageOf(options.mentionAndMessage ?? d.mentionAndMessage),
    clientCacheSize: checkPositiveInteger(
      'clientCacheSize',
      options.clientCacheSize ?? d.clientCacheSize,
    ),
    webClientOptions: { ...DEFAULT_WEB_CLIENT_OPTIONS, ...options.webClientOptions },
    historyLimit: checkPositiveInteger('historyLimit', options.historyLimit ?? d.historyLimit),
    fetch: fetchImpl,
    socketMode:
      options.socketMode === undefined
        ? undefined
        : resolveSocketModeOptions(options.socketMode, apiUrl),
  });
}
