/** The fake Slack Web API's public shapes: its calls, its failures, the running fake and its options. */
import type { FakeSlackOAuth, FakeSlackOAuthOptions } from './fake-oauth-types.js';
import type { FakeSlackMessages, FakeSlackRateLimit } from './fake-web-api-messages.js';

/** One call the fake received. */
export interface FakeSlackApiCall {
  /** Web API method (`chat.postMessage`), or `response_url` for posts to a handed-out URL. */
  readonly method: string;
  /** Decoded arguments: JSON bodies as is; form fields with JSON-looking values parsed. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Bearer token (or `token` argument); `undefined` when none was sent. */
  readonly token: string | undefined;
  /** Request path (for `response_url`s, the handed-out URL's path). */
  readonly path: string;
}

/** A call the fake refused because Slack would (`invalid_blocks`, `invalid_arguments`). */
export interface FakeSlackRejection {
  readonly method: string;
  readonly errors: readonly string[];
}

/** How a failing method answers. */
export interface FakeFailure {
  /** Slack's `error` code in `{ ok: false, error }`. Default `internal_error`. */
  readonly error?: string;
  /** HTTP status. Default 200 (Slack reports most failures as 200 + `ok: false`). */
  readonly status?: number;
  /** Fail this many calls, then answer normally. Default: every call. */
  readonly times?: number;
}

/** A running fake of Slack's Web API and `response_url` endpoints. */
export interface FakeSlackApi {
  /** Base URL to use as the adapter's `apiUrl` (ends with `/api/`). */
  readonly url: string;
  /** Every call so far, in arrival order. */
  readonly calls: readonly FakeSlackApiCall[];
  /** Calls to one method. */
  callsTo(method: string): FakeSlackApiCall[];
  /**
   * Calls refused because their blocks or view break Slack's shapes or limits (validated like
   * Slack does, `validate-blocks.ts`): answered `invalid_blocks` / `invalid_arguments`.
   */
  readonly rejections: readonly FakeSlackRejection[];
  /** A fresh `response_url` on this server; posts to it are recorded as method `response_url`. */
  responseUrl(): string;
  /** Seeds the messages `conversations.replies` returns for a thread (parent first). */
  seedReplies(
    channel: string,
    threadTs: string,
    messages: readonly Record<string, unknown>[],
  ): void;
  /** Makes `method` (or `response_url`) fail. */
  fail(method: string, failure?: FakeFailure): void;
  /** Delays every answer of `method` by `delayMs` (real time). */
  delay(method: string, delayMs: number): void;
  /** Never answers `method` (until `close()` drops the connection). */
  hang(method: string): void;
  /** Resolves once `method` has received `count` calls in total; rejects after `timeoutMs` (5000). */
  waitForCalls(method: string, count?: number, timeoutMs?: number): Promise<FakeSlackApiCall[]>;
  /** The OAuth side (consent page, `oauth.v2.access`), when started with `oauth`. */
  readonly oauth: FakeSlackOAuth | undefined;
  /**
   * The bot's messages as posted, updated and streamed (their current text), the native stream
   * states, the `assistant.threads.*` calls, and the calls refused by `rateLimits`.
   */
  readonly messages: FakeSlackMessages;
  /** Stops the server and drops open connections. Idempotent. */
  close(): Promise<void>;
}

/** Options of `startFakeSlackApi`. */
export interface FakeSlackApiOptions {
  /** Tokens the fake accepts; others get `invalid_auth`. Default: any non-empty token. */
  readonly tokens?: readonly string[];
  /** The bot identity `auth.test` reports. */
  readonly botUserId?: string;
  readonly botId?: string;
  readonly teamId?: string;
  /**
   * Serve Slack's OAuth too (`fake-oauth.ts`): a consent page at `/oauth/v2/authorize`,
   * `oauth.v2.access` (code exchange and refresh grants), and `auth.test` answered per issued token.
   * Tokens it issued are accepted until revoked or expired; with `oauth` set, other tokens are
   * accepted only when listed in `tokens`.
   */
  readonly oauth?: FakeSlackOAuthOptions;
  /**
   * Per-method rate limits (e.g. `{ 'chat.update': { limit: 3, windowMs: 1000 } }`): a call over
   * its method's limit for its token gets HTTP 429 `{ ok: false, error: 'ratelimited' }` with
   * `Retry-After` in whole seconds, and is not counted. Default: none.
   */
  readonly rateLimits?: Readonly<Record<string, FakeSlackRateLimit>>;
  /**
   * Conversations where native streaming is not available, by channel id, with the error
   * `chat.startStream` answers there (`{ ok: false, error }`, HTTP 200; e.g. a workspace or a
   * conversation without the app's AI features). Default: streaming is available everywhere.
   */
  readonly streamRefusals?: Readonly<Record<string, string>>;
}
