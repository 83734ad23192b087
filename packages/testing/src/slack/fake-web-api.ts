import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ChangeWaiters,
  RouteFaults,
  readBody,
  startLoopbackHttp,
} from '../support/loopback-http.js';
import { FakeOAuthServer } from './fake-oauth.js';
import { FakeSlackMessages } from './fake-web-api-messages.js';
import {
  authError,
  basicOf,
  parseArgs,
  tokenOf,
  validationErrors,
} from './fake-web-api-request.js';
import type {
  FakeSlackApi,
  FakeSlackApiCall,
  FakeSlackApiOptions,
  FakeSlackRejection,
} from './fake-web-api-types.js';

export type {
  FakeFailure,
  FakeSlackApi,
  FakeSlackApiCall,
  FakeSlackApiOptions,
  FakeSlackRejection,
} from './fake-web-api-types.js';

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
