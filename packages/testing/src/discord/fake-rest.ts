import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A route of the fake, as recorded in `FakeDiscordCall.route` and named in `fail`/`delay`/`hang`:
 * the HTTP method and the path template.
 */
export type FakeDiscordRoute =
  | 'POST /webhooks/:application/:token'
  | 'GET /webhooks/:application/:token/messages/:message'
  | 'PATCH /webhooks/:application/:token/messages/:message'
  | 'DELETE /webhooks/:application/:token/messages/:message'
  | 'POST /interactions/:interaction/:token/callback'
  | 'POST /channels/:channel/messages'
  | 'GET /channels/:channel/messages'
  | 'POST /channels/:channel/threads'
  | 'POST /channels/:channel/messages/:message/threads'
  | 'PUT /channels/:channel/messages/:message/reactions/:emoji/@me'
  | 'DELETE /channels/:channel/messages/:message/reactions/:emoji/@me'
  | 'PUT /applications/:application/commands'
  | 'PUT /applications/:application/guilds/:guild/commands'
  | 'GET /gateway/bot';

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
}

const ROUTES: readonly {
  readonly route: FakeDiscordRoute;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}[] = [
  ['POST /webhooks/:application/:token', /^\/webhooks\/([^/]+)\/([^/]+)$/],
  [
    'GET /webhooks/:application/:token/messages/:message',
    /^\/webhooks\/([^/]+)\/([^/]+)\/messages\/([^/]+)$/,
  ],
  [
    'PATCH /webhooks/:application/:token/messages/:message',
    /^\/webhooks\/([^/]+)\/([^/]+)\/messages\/([^/]+)$/,
  ],
  [
    'DELETE /webhooks/:application/:token/messages/:message',
    /^\/webhooks\/([^/]+)\/([^/]+)\/messages\/([^/]+)$/,
  ],
  [
    'POST /interactions/:interaction/:token/callback',
    /^\/interactions\/([^/]+)\/([^/]+)\/callback$/,
  ],
  ['POST /channels/:channel/messages', /^\/channels\/([^/]+)\/messages$/],
  ['GET /channels/:channel/messages', /^\/channels\/([^/]+)\/messages$/],
  ['POST /channels/:channel/threads', /^\/channels\/([^/]+)\/threads$/],
  [
    'POST /channels/:channel/messages/:message/threads',
    /^\/channels\/([^/]+)\/messages\/([^/]+)\/threads$/,
  ],
  [
    'PUT /channels/:channel/messages/:message/reactions/:emoji/@me',
    /^\/channels\/([^/]+)\/messages\/([^/]+)\/reactions\/([^/]+)\/@me$/,
  ],
  [
    'DELETE /channels/:channel/messages/:message/reactions/:emoji/@me',
    /^\/channels\/([^/]+)\/messages\/([^/]+)\/reactions\/([^/]+)\/@me$/,
  ],
  ['PUT /applications/:application/commands', /^\/applications\/([^/]+)\/commands$/],
  [
    'PUT /applications/:application/guilds/:guild/commands',
    /^\/applications\/([^/]+)\/guilds\/([^/]+)\/commands$/,
  ],
  ['GET /gateway/bot', /^\/gateway\/bot$/],
].map(([route, pattern]) => ({
  route: route as FakeDiscordRoute,
  pattern: pattern as RegExp,
  names: [...(route as string).matchAll(/:(\w+)/g)].map((m) => m[1] as string),
}));

function match(
  method: string,
  path: string,
): { route: FakeDiscordRoute | 'unknown'; params: Record<string, string> } {
  for (const { route, pattern, names } of ROUTES) {
    if (!route.startsWith(`${method} `)) continue;
    const found = pattern.exec(path);
    if (found === null) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = decodeURIComponent(found[i + 1] as string);
    });
    return { route, params };
  }
  return { route: 'unknown', params: {} };
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** 204 without a content type: @discordjs/rest parses any JSON content type, and an empty body crashes it. */
function noContent(res: ServerResponse): void {
  res.writeHead(204);
  res.end();
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
  const failures = new Map<
    FakeDiscordRoute,
    { status: number; code: number; message: string; remaining: number }
  >();
  const delays = new Map<FakeDiscordRoute, number>();
  const hanging = new Set<FakeDiscordRoute>();
  const channels = new Map<string, Record<string, unknown>[]>();
  const interactionChannels = new Map<string, string>();
  const waiters = new Set<() => void>();
  const botUserId = options.botUserId ?? '100000000000000001';
  let seq = 0;

  const nextId = () => {
    seq += 1;
    return String(700_000_000_000_000_000n + BigInt(seq));
  };
  const message = (
    channel: string,
    body: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => ({
    id: nextId(),
    type: 0,
    channel_id: channel,
    content: typeof body.content === 'string' ? body.content : '',
    embeds: body.embeds ?? [],
    components: body.components ?? [],
    flags: body.flags ?? 0,
    author: { id: botUserId, username: 'fake-bot', discriminator: '0', bot: true },
    timestamp: new Date().toISOString(),
    ...(body.message_reference !== undefined ? { message_reference: body.message_reference } : {}),
    ...extra,
  });

  const answer = (call: FakeDiscordCall, res: ServerResponse): void => {
    const body = (call.body ?? {}) as Record<string, unknown>;
    const p = call.params;
    switch (call.route) {
      case 'POST /webhooks/:application/:token': {
        const channel = interactionChannels.get(p.token as string) ?? '0';
        json(
          res,
          200,
          message(channel, body, { webhook_id: p.application, application_id: p.application }),
        );
        return;
      }
      case 'GET /webhooks/:application/:token/messages/:message':
      case 'PATCH /webhooks/:application/:token/messages/:message': {
        const channel = interactionChannels.get(p.token as string) ?? '0';
        const id =
          p.message === '@original'
            ? `original-${(p.token as string).slice(-8)}`
            : (p.message as string);
        json(res, 200, { ...message(channel, body, { webhook_id: p.application }), id });
        return;
      }
      case 'DELETE /webhooks/:application/:token/messages/:message':
      case 'POST /interactions/:interaction/:token/callback':
      case 'PUT /channels/:channel/messages/:message/reactions/:emoji/@me':
      case 'DELETE /channels/:channel/messages/:message/reactions/:emoji/@me':
        noContent(res);
        return;
      case 'POST /channels/:channel/messages':
        json(res, 200, message(p.channel as string, body));
        return;
      case 'GET /channels/:channel/messages': {
        const all = channels.get(p.channel as string) ?? [];
        const limit = Math.min(100, Number(call.query.limit ?? 50) || 50);
        const newestFirst = [...all].reverse();
        const start =
          call.query.before === undefined
            ? 0
            : newestFirst.findIndex((m) => m.id === call.query.before) + 1;
        json(
          res,
          200,
          start <= 0 && call.query.before !== undefined
            ? []
            : newestFirst.slice(start, start + limit),
        );
        return;
      }
      case 'POST /channels/:channel/threads':
      case 'POST /channels/:channel/messages/:message/threads':
        json(res, 201, {
          id: p.message ?? nextId(),
          type: body.type ?? 11,
          parent_id: p.channel,
          name: body.name,
          owner_id: botUserId,
        });
        return;
      case 'PUT /applications/:application/commands':
      case 'PUT /applications/:application/guilds/:guild/commands': {
        const list = Array.isArray(call.body) ? (call.body as Record<string, unknown>[]) : [];
        json(
          res,
          200,
          list.map((command) => ({
            id: nextId(),
            application_id: p.application,
            version: '1',
            type: 1,
            ...(p.guild !== undefined ? { guild_id: p.guild } : {}),
            ...command,
          })),
        );
        return;
      }
      case 'GET /gateway/bot':
        json(res, 200, {
          url: options.gatewayUrl ?? 'ws://127.0.0.1:1',
          shards: 1,
          session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
        });
        return;
      default:
        json(res, 404, { message: '404: Not Found', code: 0 });
    }
  };

  const unauthenticated = (route: FakeDiscordRoute | 'unknown') =>
    route.includes('/webhooks/') || route.includes('/interactions/');

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readAll(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/api\/v\d+/, '');
    const method = req.method ?? 'GET';
    const { route, params } = match(method, path);
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
    for (const wake of [...waiters]) wake();
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
      answer(call, res);
      return;
    }
    if (hanging.has(route)) return;
    const wait = delays.get(route);
    if (wait !== undefined) await new Promise((resolve) => setTimeout(resolve, wait));
    const failure = failures.get(route);
    if (failure !== undefined && failure.remaining > 0) {
      failure.remaining -= 1;
      json(res, failure.status, { message: failure.message, code: failure.code });
      return;
    }
    answer(call, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}/api`,
    calls,
    callsTo: (route) => calls.filter((call) => call.route === route),
    knowInteraction(interaction) {
      if (typeof interaction.channel_id === 'string') {
        interactionChannels.set(interaction.token, interaction.channel_id);
      }
    },
    seedMessages(channel, messages) {
      channels.set(channel, [...messages]);
    },
    fail(route, failure = {}) {
      failures.set(route, {
        status: failure.status ?? 500,
        code: failure.code ?? 0,
        message: failure.message ?? 'fake failure',
        remaining: failure.times ?? Number.POSITIVE_INFINITY,
      });
    },
    delay(route, delayMs) {
      delays.set(route, delayMs);
    },
    hang(route) {
      hanging.add(route);
    },
    waitForCalls(route, count = 1, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const matching = calls.filter((call) => call.route === route);
          if (matching.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(matching);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `fake Discord REST: ${route} got ${calls.filter((c) => c.route === route).length} of ${count} calls within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
