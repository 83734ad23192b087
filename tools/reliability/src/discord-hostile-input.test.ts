import { createDiscordAdapter } from '@rt/adapter-discord';
import { createRuntime, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import {
  buildAutocomplete,
  buildButton,
  buildChatInputCommand,
  buildModalSubmit,
  buildPing,
  buildSelect,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type DiscordSigner,
} from '@rt/testing/discord';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DISCORD_BED_TOKEN } from './support/discord-bed.js';
import { EmissionLog } from './support/emission-log.js';
import { recordFigures, sized } from './support/figures.js';

const RUNS = sized(300, 5000);
const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const tried: Record<string, number> = {};

interface Subject {
  readonly runtime: Runtime;
  readonly handler: (request: Request) => Promise<Response>;
  readonly signer: DiscordSigner;
  readonly log: EmissionLog;
}

const seeds = () => [
  buildChatInputCommand({ name: 'ask', options: { topic: 'locks' } }),
  buildButton({ customId: 'approve' }),
  buildSelect(),
  buildModalSubmit(),
  buildAutocomplete(),
  buildChatInputCommand({ guildId: null }),
];

function request(body: string | Uint8Array, headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/interactions', { method: 'POST', headers, body });
}

describe('hostile input against the Discord interactions handler', () => {
  let s: Subject;
  const signatures: string[] = [];
  beforeEach(() => {
    const signer = createDiscordSigner();
    const log = new EmissionLog();
    const adapter = createDiscordAdapter({
      publicKey: signer.publicKey,
      applicationId: DISCORD_TEST_IDS.applicationId,
      token: DISCORD_BED_TOKEN,
      apiUrl: 'http://127.0.0.1:9/api',
      busySignalTimeoutMs: 50,
    });
    const runtime = createRuntime({
      state: createMemoryState(),
      adapters: [adapter],
      concurrency: 'concurrent',
      observers: [log.observer],
    });
    runtime.on(
      () => true,
      () => undefined,
    );
    s = { runtime, handler: adapter.handler, signer, log };
  });
  afterEach(async () => {
    await s.runtime.shutdown({ graceMs: 0 });
    expect(s.log.leaks([DISCORD_BED_TOKEN, ...new Set(signatures)])).toEqual([]);
  });
  afterAll(() => recordFigures('discord-hostile-input', { runsPerProperty: RUNS, tried }));

  async function send(req: Request): Promise<Response> {
    const response = await s.handler(req);
    s.log.add(`${response.status} ${await response.clone().text()}`);
    expect(response.status).not.toBe(500);
    return response;
  }

  it('refuses any unsigned, wrongly keyed or malformed signature with 401 and dispatches nothing', async () => {
    const stranger = createDiscordSigner();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.constantFrom(...seeds()).map((p) => JSON.stringify(p)),
        ),
        fc.oneof(
          fc.constant('unsigned' as const),
          fc.constant('stranger' as const),
          hex(128),
          fc.string(),
        ),
        fc.option(fc.oneof(fc.string(), fc.nat().map(String)), { nil: undefined }),
        async (body, signature, timestamp) => {
          tried.unsigned = (tried.unsigned ?? 0) + 1;
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (signature === 'stranger') Object.assign(headers, stranger.sign(body));
          else if (signature !== 'unsigned') headers['x-signature-ed25519'] = signature;
          if (timestamp !== undefined) headers['x-signature-timestamp'] = timestamp;
          expect((await send(request(body, headers))).status).toBe(401);
        },
      ),
      { numRuns: RUNS },
    );
    expect(s.runtime.stats().received).toBe(0);
  });

  it('refuses a signed interaction after any change to its body, signature or timestamp', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...seeds()),
        fc.oneof(
          fc.record({
            part: fc.constant('insert' as const),
            at: fc.nat(),
            by: fc.string({ minLength: 1, maxLength: 3 }),
          }),
          fc.record({ part: fc.constant('truncate' as const), at: fc.nat(), by: fc.constant('') }),
          fc.record({ part: fc.constant('signature' as const), at: fc.nat(), by: hex(1) }),
          fc.record({
            part: fc.constant('timestamp' as const),
            at: fc.integer({ min: 1, max: 10 ** 6 }),
            by: fc.constant(''),
          }),
        ),
        async (payload, m) => {
          tried.mutated = (tried.mutated ?? 0) + 1;
          let body = JSON.stringify(payload);
          const headers: Record<string, string> = {
            'content-type': 'application/json',
            ...s.signer.sign(body),
          };
          signatures.push(headers['x-signature-ed25519'] ?? '');
          if (m.part === 'insert') {
            const at = m.at % (body.length + 1);
            body = body.slice(0, at) + m.by + body.slice(at);
          } else if (m.part === 'truncate') {
            body = body.slice(0, m.at % body.length);
          } else if (m.part === 'signature') {
            const sig = headers['x-signature-ed25519'] ?? '';
            const at = m.at % sig.length;
            const flipped = sig[at] === m.by ? (m.by === '0' ? '1' : '0') : m.by;
            headers['x-signature-ed25519'] = sig.slice(0, at) + flipped + sig.slice(at + 1);
          } else {
            headers['x-signature-timestamp'] = String(
              Number(headers['x-signature-timestamp']) + m.at,
            );
          }
          expect((await send(request(body, headers))).status).toBe(401);
        },
      ),
      { numRuns: RUNS },
    );
    expect(s.runtime.stats().received).toBe(0);
  });

  it('answers any validly signed body with a documented answer or a 4xx, never a crash', async () => {
    const fieldMutated = fc
      .tuple(
        fc.constantFrom(...seeds()),
        fc.nat(),
        fc.option(fc.jsonValue(), { nil: undefined }),
        fc.boolean(),
      )
      .map(([payload, pick, value, inner]) => {
        const data = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
        const target =
          inner && typeof data.data === 'object' && data.data !== null
            ? (data.data as Record<string, unknown>)
            : data;
        const keys = Object.keys(target);
        const key = keys[pick % keys.length]!;
        if (value === undefined) delete target[key];
        else target[key] = value;
        return JSON.stringify(data);
      });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fieldMutated, fc.json(), fc.string()), async (body) => {
        tried.signedRandom = (tried.signedRandom ?? 0) + 1;
        const headers = { 'content-type': 'application/json', ...s.signer.sign(body) };
        signatures.push(headers['x-signature-ed25519']);
        const response = await send(request(body, headers));
        expect(
          response.status === 200 ||
            response.status === 202 ||
            (response.status >= 400 && response.status < 500),
        ).toBe(true);
        if (response.status === 200) {
          const answer = (await response.json()) as { type?: unknown };
          expect([1, 4, 5, 6, 8]).toContain(answer.type);
        }
      }),
      { numRuns: RUNS },
    );
    expect(s.runtime.stats().received).toBeGreaterThan(0);
    tried.signedDispatched = s.runtime.stats().received;
    await s.runtime.shutdown({ graceMs: 1000 });
    expect(s.runtime.stats().detachedInFlight).toBe(0);
  });

  it('answers a signed PING with type 1 and dispatches nothing', async () => {
    const ping = JSON.stringify(buildPing());
    const response = await send(
      request(ping, { 'content-type': 'application/json', ...s.signer.sign(ping) }),
    );
    expect(await response.json()).toEqual({ type: 1 });
    expect(s.runtime.stats().received).toBe(0);
  });
});
