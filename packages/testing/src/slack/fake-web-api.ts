import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ChangeWaiters,
  RouteFaults,
  readBody,
  startLoopbackHttp,
} from '../support/loopback-http.js';
import { FakeOAuthServer } from './fake-oauth.js';
import type { FakeSlackOAuth, FakeSlackOAuthOptions } from './fake-oauth-types.js';
import { FakeSlackMessages, type FakeSlackRateLimit } from './fake-web-api-messages.js';
import { validateSlackMessage, validateSlackView } from './validate-blocks.js';

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

function parseArgs(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (raw.length === 0) return {};
  if (contentType?.startsWith('application/json')) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      return typeof parsed === 'object' && parsed !== null
        ? (parsed as Record<string, unknown>)
        : {};
    } catch {
      return { _raw: raw };
    }
  }
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const looksJson = value.startsWith('{') || value.startsWith('[');
    if (looksJson) {
      try {
        args[key] = JSON.parse(value);
        continue;
      } catch {
        // keep the string
      }
    }
    args[key] = value;
  }
  return args;
}

const MESSAGE_METHODS = new Set([
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'response_url',
]);

/** What Slack would refuse in `args` of `method` (blocks and views only). */
function validationErrors(method: string, args: Record<string, unknown>): string[] {
  if (MESSAGE_METHODS.has(method)) return validateSlackMessage(args);
  if (method === 'views.open' || method === 'views.push' || method === 'views.update') {
    return validateSlackView(args.view);
  }
  return [];
}

/**
 * Why Slack would refuse `token` before reading the call (`not_authed`, `invalid_auth`, or the
 * issued token's own error such as `token_revoked`), or `undefined` when it is accepted.
 */
function authError(
  token: string | undefined,
  issued: ReturnType<FakeOAuthServer['check']>,
  options: { readonly tokens?: readonly string[] | undefined },
  oauth: FakeOAuthServer | undefined,
): string | undefined {
  if (issued !== undefined) return 'error' in issued ? String(issued.error) : undefined;
  if (token === undefined || token.length === 0) return 'not_authed';
  if (oauth !== undefined)
    return (options.tokens ?? []).includes(token) ? undefined : 'invalid_auth';
  if (options.tokens !== undefined && !options.tokens.includes(token)) return 'invalid_auth';
  return undefined;
}

function tokenOf(req: IncomingMessage, args: Record<string, unknown>): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7);
  return typeof args.token === 'string' ? args.token : undefined;
}

function basicOf(req: IncomingMessage): { id?: string; secret?: string } {
  const header = req.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Basic ')) return {};
  const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
  return { ...(id ? { id } : {}), ...(secret ? { secret } : {}) };
}

/**
 * Starts a fake Slack on 127.0.0.1, port 0. It records every call (method, decoded args, token)
 * and answers plausibly: `chat.postMessage` (ok, `channel`, a fresh `ts`; thread replies are added
 * to the thread), `chat.update`, `chat.postEphemeral`, `reactions.add/remove`,
 * `views.open/push/update/publish` (a view id and hash), `conversations.replies` (seeded threads,
 * `limit` and cursor honoured), `auth.test`, the native streaming methods and
 * `assistant.threads.*` (`FakeSlackMessages`); unknown methods answer `unknown_method`, missing
 * tokens `not_authed`. `response_url`s it hands out accept JSON posts.
 */
export async function startFakeSlackApi(options: FakeSlackApiOptions = {}): Promise<FakeSlackApi> {
  const calls: FakeSlackApiCall[] = [];
  const rejections: FakeSlackRejection[] = [];
  const faults = new RouteFaults<string, { error: string; status: number }>();
  const threads = new Map<string, Record<string, unknown>[]>();
  const waiters = new ChangeWaiters('fake Slack');
  const messages = new FakeSlackMessages(options.rateLimits, options.streamRefusals);
  let seq = 0;
  let responseUrls = 0;
  const botUserId = options.botUserId ?? 'U0BOT';
  const botId = options.botId ?? 'B0BOT';

  const nextTs = () => {
    seq += 1;
    return `${1_800_000_000 + seq}.${String(seq).padStart(6, '0')}`;
  };

  const answer = (method: string, args: Record<string, unknown>): Record<string, unknown> => {
    switch (method) {
      case 'chat.postMessage': {
        const ts = nextTs();
        const channel = String(args.channel ?? '');
        const message: Record<string, unknown> = {
          type: 'message',
          text: args.text,
          user: botUserId,
          bot_id: botId,
          ts,
          ...(args.thread_ts !== undefined ? { thread_ts: args.thread_ts } : {}),
        };
        if (typeof args.thread_ts === 'string') {
          threads.get(`${channel}:${args.thread_ts}`)?.push(message);
        }
        return { ok: true, channel, ts, message };
      }
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: nextTs() };
      case 'chat.delete':
        return { ok: true, channel: args.channel, ts: args.ts };
      case 'reactions.add':
      case 'reactions.remove':
        return { ok: true };
      case 'conversations.open':
        return { ok: true, channel: { id: `D${String(args.users ?? '').split(',')[0]}` } };
      case 'views.open':
      case 'views.push':
      case 'views.update':
      case 'views.publish': {
        seq += 1;
        const view = typeof args.view === 'object' && args.view !== null ? args.view : {};
        return {
          ok: true,
          view: { ...view, id: args.view_id ?? `VFAKE${seq}`, hash: `${seq}.fakehash` },
        };
      }
      case 'conversations.replies': {
        const thread = threads.get(`${String(args.channel)}:${String(args.ts)}`);
        if (thread === undefined) return { ok: false, error: 'thread_not_found' };
        const start = Number(args.cursor ?? 0) || 0;
        const limit = Number(args.limit ?? 1000) || 1000;
        const page = thread.slice(start, start + limit);
        const more = start + limit < thread.length;
        return {
          ok: true,
          messages: page,
          has_more: more,
          response_metadata: { next_cursor: more ? String(start + limit) : '' },
        };
      }
      case 'auth.test':
        return {
          ok: true,
          url: 'https://example.slack.com/',
          team_id: options.teamId ?? 'T0TEAM',
          user_id: botUserId,
          bot_id: botId,
        };
      default:
        return messages.answer(method, args, nextTs) ?? { ok: false, error: 'unknown_method' };
    }
  };

  let oauth: FakeOAuthServer | undefined;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (oauth?.serveBrowser(req, res) === true) return;
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const isResponseUrl = path.startsWith('/response/');
    const method = isResponseUrl ? 'response_url' : path.replace(/^\/api\//, '');
    const args = parseArgs(raw, req.headers['content-type']);
    const token = isResponseUrl ? undefined : tokenOf(req, args);
    calls.push({ method, args, token, path });
    waiters.changed();
    const fault = await faults.apply(method);
    if (fault?.type === 'hang') return;
    const send = (status: number, body: Record<string, unknown>) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (fault?.type === 'fail') {
      send(fault.failure.status, { ok: false, error: fault.failure.error });
      return;
    }
    if (oauth !== undefined && method === 'oauth.v2.access') {
      send(200, oauth.access(args, basicOf(req)));
      return;
    }
    // Slack authenticates a call before it reads its arguments: an unknown token gets
    // `invalid_auth` whatever else is wrong with the call.
    const issued =
      oauth !== undefined && token !== undefined && !isResponseUrl ? oauth.check(token) : undefined;
    const refused = isResponseUrl ? undefined : authError(token, issued, options, oauth);
    if (refused !== undefined) {
      send(200, { ok: false, error: refused });
      return;
    }
    const invalid = validationErrors(method, args);
    if (invalid.length > 0) {
      rejections.push({ method, errors: invalid });
      const views = method.startsWith('views.');
      // Slack answers a message text over its limit with `msg_too_long`, other bad shapes with
      // `invalid_blocks` (views: `invalid_arguments`).
      const tooLong = !views && invalid.every((error) => error.endsWith('[json-pointer:/text]'));
      send(200, {
        ok: false,
        error: views ? 'invalid_arguments' : tooLong ? 'msg_too_long' : 'invalid_blocks',
        ...(views
          ? { response_metadata: { messages: invalid } }
          : tooLong
            ? {}
            : { errors: invalid }),
      });
      return;
    }
    if (isResponseUrl) {
      send(200, { ok: true });
      return;
    }
    if (issued !== undefined && !('error' in issued) && method === 'auth.test') {
      send(200, oauth!.authTest(issued.workspace, issued.kind));
      return;
    }
    const retryAfter = messages.limited(method, token ?? '');
    if (retryAfter !== undefined) {
      res.writeHead(429, {
        'content-type': 'application/json; charset=utf-8',
        'retry-after': String(retryAfter),
      });
      res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      return;
    }
    const refusal = messages.refuse(method, args);
    const body = refusal === undefined ? answer(method, args) : { ok: false, error: refusal };
    messages.after(method, args, body);
    send(200, body);
  };

  const http = await startLoopbackHttp(handle);
  const { origin } = http;
  if (options.oauth !== undefined) oauth = new FakeOAuthServer(options.oauth, origin);

  return {
    url: `${origin}/api/`,
    calls,
    rejections,
    callsTo: (method) => calls.filter((call) => call.method === method),
    responseUrl: () => {
      responseUrls += 1;
      return `${origin}/response/${responseUrls}`;
    },
    seedReplies: (channel, threadTs, messages) => {
      threads.set(
        `${channel}:${threadTs}`,
        messages.map((message) => ({ ...message })),
      );
    },
    fail: (method, failure = {}) => {
      faults.fail(
        method,
        { error: failure.error ?? 'internal_error', status: failure.status ?? 200 },
        failure.times,
      );
    },
    delay: (method, delayMs) => faults.delay(method, delayMs),
    hang: (method) => faults.hang(method),
    waitForCalls: (method, count = 1, timeoutMs = 5000) => {
      const matching = () => calls.filter((call) => call.method === method);
      return waiters.until(
        () => (matching().length >= count ? matching() : undefined),
        timeoutMs,
        () => `${method} got ${matching().length} of ${count} calls`,
      );
    },
    oauth,
    messages,
    close: () => http.close(),
  };
}
