import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ChangeWaiters,
  RouteFaults,
  readBody,
  startLoopbackHttp,
} from '../support/loopback-http.js';
import { FakeDiscordStore, json } from './fake-rest-answers.js';
import { FakeDiscordMessages, type FakeDiscordRateLimit } from './fake-rest-messages.js';
import { type FakeDiscordRoute, matchRoute } from './fake-rest-routes.js';
import { validateDiscordCallback, validateDiscordMessage } from './validate-components.js';

export type { FakeDiscordRoute } from './fake-rest-routes.js';

/** One call the fake received. */
export interface FakeDiscordCall {
  readonly route: FakeDiscordRoute | 'unknown';
  readonly method: string;
  /** Path after `/api/v10`, decoded (`/webhooks/1/tok/messages/@original`). */
  readonly path: string;
  /** The path's parameters by name (`application`, `token`, `channel`, `message`, `emoji`...). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** The JSON body, or `undefined` when none was sent. */
  readonly body: unknown;
  /** The bot token (`Authorization: Bot <token>`), `undefined` for unauthenticated calls. */
  readonly token: string | undefined;
  /** Epoch ms at arrival (`Date.now()`). */
  readonly at: number;
}

/** A call the fake refused with 400 "Invalid Form Body" (50035), as Discord would. */
export interface FakeDiscordRejection {
  readonly route: FakeDiscordRoute;
  readonly errors: readonly string[];
}

/** Routes whose body is a message Discord validates. */
const MESSAGE_ROUTES: ReadonlySet<FakeDiscordRoute> = new Set<FakeDiscordRoute>([
  'POST /webhooks/:application/:token',
  'PATCH /webhooks/:application/:token/messages/:message',
  'POST /channels/:channel/messages',
  'PATCH /channels/:channel/messages/:message',
]);

/** What Discord would refuse in `call`'s body (messages, callbacks, modals). */
function validationErrors(route: FakeDiscordRoute, body: unknown): string[] {
  if (MESSAGE_ROUTES.has(route)) return validateDiscordMessage(body ?? {});
  if (route === 'POST /interactions/:interaction/:token/callback') {
    return validateDiscordCallback(body);
  }
  return [];
}

/** How a failing route answers. */
export interface FakeDiscordFailure {
  /** HTTP status. Default 500. */
  readonly status?: number;
  /** Discord's JSON error code (e.g. 10062 Unknown interaction). Default 0. */
  readonly code?: number;
  readonly message?: string;
  /** Fail this many calls, then answer normally. Default: every call. */
  readonly times?: number;
}

/** A running fake of Discord's REST API. */
export interface FakeDiscordRest {
  /** Base URL to give the adapter as `apiUrl` (`http://127.0.0.1:<port>/api`). */
  readonly url: string;
  /** Every call so far, in arrival order. */
  readonly calls: readonly FakeDiscordCall[];
  /** Calls to one route. */
  callsTo(route: FakeDiscordRoute): FakeDiscordCall[];
  /**
   * Calls refused because their message, callback or modal breaks Discord's shapes or limits
   * (validated like Discord does, `validate-components.ts`): answered 400, code 50035.
   */
  readonly rejections: readonly FakeDiscordRejection[];
  /** Remembers an interaction's channel, so messages sent with its token land there. */
  knowInteraction(interaction: { readonly token: string; readonly channel_id?: unknown }): void;
  /** Seeds the messages of a channel, oldest first (what `GET /channels/:id/messages` pages through). */
  seedMessages(channel: string, messages: readonly Record<string, unknown>[]): void;
  /** Makes `route` fail. */
  fail(route: FakeDiscordRoute, failure?: FakeDiscordFailure): void;
  /** Delays every answer of `route` by `delayMs` (real time). */
  delay(route: FakeDiscordRoute, delayMs: number): void;
  /** Never answers `route` (until `close()` drops the connection). */
  hang(route: FakeDiscordRoute): void;
  /** Resolves once `route` has received `count` calls in total; rejects after `timeoutMs` (5000). */
  waitForCalls(
    route: FakeDiscordRoute,
    count?: number,
    timeoutMs?: number,
  ): Promise<FakeDiscordCall[]>;
  /**
   * The bot's messages with their current content, typing calls, and the writes refused by the
   * rate limit (`messageRate`) or the 2000-character limit.
   */
  readonly messages: FakeDiscordMessages;
  /** Stops the server and drops open connections. Idempotent. */
  close(): Promise<void>;
}

/** Options of `startFakeDiscordRest`. */
export interface FakeDiscordRestOptions {
  /** Bot tokens the fake accepts on bot routes; others get 401. Default: any non-empty token. */
  readonly tokens?: readonly string[];
  /** The bot user the fake's messages are authored by. */
  readonly botUserId?: string;
  /** The gateway URL `GET /gateway/bot` reports. Default `ws://127.0.0.1:1`. */
  readonly gatewayUrl?: string;
  /**
   * Message creates and edits allowed per channel (per interaction for webhook routes) in a
   * window; past it 429 with `Retry-After` (seconds, to the millisecond) and `retry_after`.
   * Default: no limit. Content over 2000 characters is always refused (400, code 50035).
   */
  readonly messageRate?: FakeDiscordRateLimit;
}

/**
 * Starts a fake Discord REST API (v10) on 127.0.0.1, port 0. It records every call and answers
 * plausibly: interaction follow-ups (`POST /webhooks/:app/:token`, a message in the interaction's
 * channel), `@original` and follow-up edits, reads and deletes, interaction callbacks (204),
 * channel messages (with `message_reference` kept), history (`GET /channels/:id/messages` over
 * seeded messages, newest first, `limit` and `before` honoured), bulk command registration
 * (global and per guild, the commands echoed with ids), threads (from a message: the
 * thread's id is the message's), reactions (204) and `GET /gateway/bot`. Bot routes without a
 * valid `Authorization: Bot` token get 401; unknown routes 404. Empty answers are 204 without a
 * content type.
 */
export async function startFakeDiscordRest(
  options: FakeDiscordRestOptions = {},
): Promise<FakeDiscordRest> {
  const calls: FakeDiscordCall[] = [];
  const rejections: FakeDiscordRejection[] = [];
  const faults = new RouteFaults<
    FakeDiscordRoute,
    { status: number; code: number; message: string }
  >();
  const waiters = new ChangeWaiters('fake Discord REST');

  const store = new FakeDiscordStore(options);
  const messages = new FakeDiscordMessages(options.messageRate);

  const unauthenticated = (route: FakeDiscordRoute | 'unknown') =>
    route.includes('/webhooks/') || route.includes('/interactions/');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/api\/v\d+/, '');
    const method = req.method ?? 'GET';
    const { route, params } = matchRoute(method, path);
    const header = req.headers.authorization;
    const token =
      typeof header === 'string' && header.startsWith('Bot ') ? header.slice(4) : undefined;
    let body: unknown;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const call: FakeDiscordCall = {
      route,
      method,
      path: decodeURIComponent(path),
      params,
      query: Object.fromEntries(url.searchParams),
      body,
      token,
      at: Date.now(),
    };
    calls.push(call);
    waiters.changed();
    if (route !== 'unknown' && !unauthenticated(route)) {
      const allowed =
        options.tokens === undefined
          ? token !== undefined && token.length > 0
          : options.tokens.includes(token ?? '');
      if (!allowed) {
        json(res, 401, { message: '401: Unauthorized', code: 0 });
        return;
      }
    }
    if (route === 'unknown') {
      store.answer(call, res);
      return;
    }
    const fault = await faults.apply(route);
    if (fault?.type === 'hang') return;
    if (fault?.type === 'fail') {
      const { status, message, code } = fault.failure;
      json(res, status, { message, code });
      return;
    }
    if (messages.intercept(call, res)) return;
    const invalid = validationErrors(route, body);
    if (invalid.length > 0) {
      rejections.push({ route, errors: invalid });
      json(res, 400, { message: 'Invalid Form Body', code: 50035, errors: invalid });
      return;
    }
    store.answer(call, res);
  };

  const http = await startLoopbackHttp(handle);

  return {
    url: `${http.origin}/api`,
    calls,
    rejections,
    callsTo: (route) => calls.filter((call) => call.route === route),
    knowInteraction(interaction) {
      store.knowInteraction(interaction);
    },
    seedMessages(channel, messages) {
      store.seedMessages(channel, messages);
    },
    fail(route, failure = {}) {
      faults.fail(
        route,
        {
          status: failure.status ?? 500,
          code: failure.code ?? 0,
          message: failure.message ?? 'fake failure',
        },
        failure.times,
      );
    },
    delay: (route, delayMs) => faults.delay(route, delayMs),
    hang: (route) => faults.hang(route),
    waitForCalls(route, count = 1, timeoutMs = 5000) {
      const matching = () => calls.filter((call) => call.route === route);
      return waiters.until(
        () => (matching().length >= count ? matching() : undefined),
        timeoutMs,
        () => `${route} got ${matching().length} of ${count} calls`,
      );
    },
    messages,
    close: () => http.close(),
  };
}
