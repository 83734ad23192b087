import { createSlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildSlashCommand,
  buildSslCheck,
  buildViewSubmission,
  createSlackSigner,
  type SlackTestPayload,
} from '@rt/testing/slack';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmissionLog } from './support/emission-log.js';
import { recordFigures, sized } from './support/figures.js';
import { BED_SECRET, BED_TOKEN } from './support/slack-bed.js';

const NOW_S = 1_800_000_000;
const NOW_MS = NOW_S * 1000;
const RUNS = sized(300, 5000);
const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const URL = 'http://127.0.0.1/slack/events';

/** How many generated inputs every property tried, for docs/reliability.md. */
const tried: Record<string, number> = {};

interface Subject {
  readonly runtime: Runtime;
  readonly handler: (request: Request) => Promise<Response>;
  readonly log: EmissionLog;
  /** Handler bodies entered. */
  handled: number;
}

function subject(): Subject {
  const log = new EmissionLog();
  const adapter = createSlackAdapter({
    signingSecret: BED_SECRET,
    botToken: BED_TOKEN,
    apiUrl: 'http://127.0.0.1:9/api/',
    clock: () => NOW_MS,
    webClientOptions: { retryConfig: { retries: 0 } },
    busySignalTimeoutMs: 50,
  });
  const runtime = createRuntime({
    state: createMemoryState(),
    adapters: [adapter],
    concurrency: 'concurrent',
    observers: [log.observer],
  });
  const s: Subject = { runtime, handler: adapter.handler, log, handled: 0 };
  const count = () => {
    s.handled += 1;
  };
  runtime.on(() => true, count);
  return s;
}

function request(body: string | Uint8Array, headers: Record<string, string>): Request {
  return new Request(URL, { method: 'POST', headers, body });
}

/** Sends `req`, records what came back, and checks it is never a crash or an answer Slack reads as a bug. */
async function send(s: Subject, req: Request): Promise<Response> {
  const response = await s.handler(req);
  const text = await response.clone().text();
  s.log.add(`${response.status} ${[...response.headers].join(';')} ${text}`);
  expect(response.status).not.toBe(500);
  return response;
}

const signedHeaders = (body: string, contentType: string, timestamp = NOW_S) => ({
  'content-type': contentType,
  ...createSlackSigner(BED_SECRET).sign(body, timestamp),
});

/** Real payload shapes to mutate from. */
const seeds = (): SlackTestPayload[] => [
  buildAppMentionEvent(),
  buildSlashCommand({ command: '/rt', text: 'hello' }),
  buildBlockActions({ actionId: 'approve' }),
  buildViewSubmission(),
];

describe('hostile input against the Slack HTTP handler', () => {
  let s: Subject;
  const signatures: string[] = [];
  beforeEach(() => {
    s = subject();
  });
  afterEach(async () => {
    await s.runtime.shutdown({ graceMs: 0 });
    // No generated input reached a handler unless the test below says so, and nothing leaked.
    expect(s.log.leaks([BED_SECRET, BED_TOKEN, ...new Set(signatures)])).toEqual([]);
    expect(
      s.log.observations.filter((o) => o.type === 'adapter_notice' && o.name === 'request_failed'),
    ).toEqual([]);
  });
  afterAll(() => {
    recordFigures('slack-hostile-input', { runsPerProperty: RUNS, tried });
  });

  it('refuses any unsigned or wrongly signed request with 401 and dispatches nothing', async () => {
    const headerValue = fc.oneof(
      fc.string(),
      fc.constant(String(NOW_S)),
      hex(64).map((digest) => `v0=${digest}`),
      fc.constant('v0='),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.uint8Array({ maxLength: 2048 }), fc.json()),
        fc.option(headerValue, { nil: undefined }),
        fc.option(headerValue, { nil: undefined }),
        fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', ''),
        async (body, timestamp, signature, contentType) => {
          tried.unsigned = (tried.unsigned ?? 0) + 1;
          const headers: Record<string, string> = {};
          if (contentType !== '') headers['content-type'] = contentType;
          if (timestamp !== undefined) headers['x-slack-request-timestamp'] = timestamp;
          if (signature !== undefined) headers['x-slack-signature'] = signature;
          const response = await send(s, request(body, headers));
          // Only Slack's unsigned ssl_check probe may get 200, and it dispatches nothing.
          const text = typeof body === 'string' ? body : Buffer.from(body).toString();
          const probe = new URLSearchParams(text).get('ssl_check') === '1';
          expect(response.status).toBe(probe && contentType !== 'application/json' ? 200 : 401);
        },
      ),
      { numRuns: RUNS },
    );
    expect(s.runtime.stats().received).toBe(0);
    expect(s.handled).toBe(0);
  });

  it('refuses a real signed request after any mutation of its body, signature or timestamp', async () => {
    const mutation = fc.oneof(
      fc.record({
        part: fc.constant('body' as const),
        at: fc.nat(),
        by: fc.string({ minLength: 1, maxLength: 3 }),
      }),
      fc.record({ part: fc.constant('truncate' as const), at: fc.nat(), by: fc.constant('') }),
      fc.record({
        part: fc.constant('signature' as const),
        at: fc.nat(),
        by: hex(1),
      }),
      fc.record({
        part: fc.constant('timestamp' as const),
        at: fc.integer({ min: -299, max: 299 }),
        by: fc.constant(''),
      }),
      fc.record({
        part: fc.constant('secret' as const),
        at: fc.nat(),
        by: fc.string({ minLength: 1 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...seeds()), mutation, async (payload, m) => {
        tried.mutated = (tried.mutated ?? 0) + 1;
        const headers = signedHeaders(payload.body, payload.contentType);
        signatures.push(headers['x-slack-signature']);
        let body = payload.body;
        const h: Record<string, string> = { ...headers };
        if (m.part === 'body') {
          const at = m.at % (body.length + 1);
          body = body.slice(0, at) + m.by + body.slice(at);
        } else if (m.part === 'truncate') {
          body = body.slice(0, m.at % body.length);
        } else if (m.part === 'signature') {
          const sig = h['x-slack-signature'] ?? '';
          const at = 3 + (m.at % 64);
          const flipped = sig[at] === m.by ? (m.by === '0' ? '1' : '0') : m.by;
          h['x-slack-signature'] = sig.slice(0, at) + flipped + sig.slice(at + 1);
        } else if (m.part === 'timestamp') {
          if (m.at === 0) return;
          // Inside the window, but not the timestamp that was signed.
          h['x-slack-request-timestamp'] = String(NOW_S + m.at);
        } else {
          if (m.by === BED_SECRET) return;
          Object.assign(h, createSlackSigner(m.by).sign(body, NOW_S));
        }
        const response = await send(s, request(body, h));
        expect(response.status).toBe(401);
      }),
      { numRuns: RUNS },
    );
    expect(s.runtime.stats().received).toBe(0);
    expect(s.handled).toBe(0);
  });

  it('answers any validly signed body with a 2xx or 4xx, never a crash', async () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc
        .jsonValue()
        .map((v) =>
          JSON.stringify({ type: 'event_callback', event: v, event_id: 'EvX', team_id: 'T1' }),
        ),
      fc.jsonValue().map((v) =>
        JSON.stringify({
          type: 'event_callback',
          event: { type: 'app_mention', channel: v, ts: v },
          event_id: v,
          team_id: v,
          authorizations: v,
        }),
      ),
      fc
        .record({
          type: fc.string(),
          event_id: fc.string(),
          team_id: fc.string(),
          event: fc.object(),
        })
        .map((o) => JSON.stringify(o)),
    );
    const formish = fc.oneof(
      fc
        .dictionary(
          fc.constantFrom(
            'command',
            'team_id',
            'trigger_id',
            'payload',
            'text',
            'ssl_check',
            'channel_id',
            'response_url',
            'is_enterprise_install',
            'enterprise_id',
          ),
          fc.string(),
        )
        .map((d) => new URLSearchParams(d).toString()),
      fc.jsonValue().map((v) => new URLSearchParams({ payload: JSON.stringify(v) }).toString()),
      fc
        .record({
          type: fc.constantFrom(
            'block_actions',
            'view_submission',
            'view_closed',
            'shortcut',
            'message_action',
            'block_suggestion',
            'x',
          ),
          team: fc.jsonValue(),
          trigger_id: fc.string(),
          view: fc.jsonValue(),
          actions: fc.jsonValue(),
          user: fc.jsonValue(),
        })
        .map((p) => new URLSearchParams({ payload: JSON.stringify(p) }).toString()),
      fc.string(),
    );
    // Real payloads with one field replaced by any JSON value (or removed), re-encoded and signed.
    const fieldMutated = fc
      .tuple(
        fc.constantFrom(...seeds()),
        fc.nat(),
        fc.option(fc.jsonValue(), { nil: undefined }),
        fc.boolean(),
      )
      .map(([payload, pick, value, inner]): [string, string] => {
        const set = (o: Record<string, unknown>) => {
          const keys = Object.keys(o);
          const key = keys[pick % keys.length]!;
          if (value === undefined) delete o[key];
          else o[key] = value;
        };
        if (payload.contentType === 'application/json') {
          const data = JSON.parse(payload.body) as Record<string, unknown>;
          set(
            inner && typeof data.event === 'object' && data.event !== null
              ? (data.event as Record<string, unknown>)
              : data,
          );
          return [JSON.stringify(data), payload.contentType];
        }
        const form = Object.fromEntries(new URLSearchParams(payload.body));
        if (form.payload !== undefined) {
          const data = JSON.parse(form.payload) as Record<string, unknown>;
          set(data);
          return [
            new URLSearchParams({ payload: JSON.stringify(data) }).toString(),
            payload.contentType,
          ];
        }
        const fields: Record<string, unknown> = form;
        set(fields);
        const encoded = Object.fromEntries(
          Object.entries(fields).map(([k, v]) => [
            k,
            typeof v === 'string' ? v : JSON.stringify(v),
          ]),
        );
        return [new URLSearchParams(encoded).toString(), payload.contentType];
      });
    const bodyAndType = fc.oneof(
      fieldMutated,
      fc.tuple(
        jsonish,
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'),
      ),
      fc.tuple(
        formish,
        fc.constantFrom(
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded; charset=latin1',
        ),
      ),
      fc.tuple(
        fc.oneof(jsonish, formish),
        fc.constantFrom('text/plain', 'multipart/form-data', ''),
      ),
    );
    await fc.assert(
      fc.asyncProperty(bodyAndType, async ([body, contentType]) => {
        tried.signedRandom = (tried.signedRandom ?? 0) + 1;
        const headers = signedHeaders(body, contentType);
        signatures.push(headers['x-slack-signature']);
        if (contentType === '') delete (headers as Record<string, string>)['content-type'];
        const response = await send(s, request(body, headers));
        expect(
          response.status === 200 ||
            (response.status >= 400 && response.status < 500) ||
            response.status === 503,
        ).toBe(true);
        if (response.status === 503) {
          // 503 is Slack's retry signal: only for an Events API delivery the runtime refused.
          expect(
            s.log.observations.some(
              (o) => o.type === 'admission_rejected' || o.type === 'prelude_error',
            ),
          ).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
    // Some generated bodies were well-formed enough to be dispatched: the parser was reached.
    expect(s.runtime.stats().received).toBeGreaterThan(0);
    tried.signedDispatched = s.runtime.stats().received;
    await s.runtime.shutdown({ graceMs: 1000 });
    // Whatever was dispatched got its outcome; nothing is left in flight.
    expect(s.runtime.stats().detachedInFlight).toBe(0);
  });

  it('refuses a correctly signed request outside the 5-minute window, either side', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...seeds()),
        fc.oneof(
          fc.integer({ min: 301, max: 10 ** 7 }),
          fc.integer({ min: -(10 ** 7), max: -301 }),
        ),
        async (payload, skewS) => {
          tried.stale = (tried.stale ?? 0) + 1;
          const headers = signedHeaders(payload.body, payload.contentType, NOW_S + skewS);
          signatures.push(headers['x-slack-signature']);
          const response = await send(s, request(payload.body, headers));
          expect(response.status).toBe(401);
        },
      ),
      { numRuns: RUNS },
    );
    expect(s.runtime.stats().received).toBe(0);
    // The same requests inside the window are dispatched: the refusal above was the window's.
    for (const payload of seeds()) {
      const headers = signedHeaders(payload.body, payload.contentType, NOW_S - 299);
      signatures.push(headers['x-slack-signature']);
      expect((await send(s, request(payload.body, headers))).status).toBe(200);
    }
    expect(s.runtime.stats().received).toBe(seeds().length);
    expect(
      s.log.observations.filter(
        (o) => o.type === 'adapter_notice' && o.name === 'signature_rejected',
      ).length,
    ).toBe(RUNS);
  });

  it('answers an ssl_check probe 200 without dispatching, signed or not', async () => {
    const probe = buildSslCheck();
    expect((await send(s, request(probe.body, { 'content-type': probe.contentType }))).status).toBe(
      200,
    );
    expect(s.runtime.stats().received).toBe(0);
  });
});
