import type { Handler } from '@rt/core';
import { deferred } from '@rt/testing';
import {
  closeHttpTransports,
  failOnUnhandledRejections,
  HTTP_TRANSPORTS,
} from '@rt/testing/adapter';
import {
  buildButton,
  buildChatInputCommand,
  buildPing,
  createDiscordSigner,
} from '@rt/testing/discord';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../discord-adapter.js';
import { type Harness, startHarness } from '../test-support/harness.js';

/** A signed request for `payload`, then broken by `tamper`. */
type Tamper = (h: Harness, body: string) => Request;

const tampered: readonly [string, Tamper][] = [
  ['signed with another key', (_h, body) => createDiscordSigner().request(body)],
  [
    'a tampered body',
    (h, body) => {
      const headers = h.signer.sign(body);
      return h.signer.request(body.replace('"ask"', '"ass"'), {
        unsigned: true,
        headers: { ...headers },
      });
    },
  ],
  [
    'a tampered timestamp',
    (h, body) => {
      const now = Math.floor(Date.now() / 1000);
      const headers = h.signer.sign(body, now);
      return h.signer.request(body, {
        unsigned: true,
        headers: { ...headers, 'x-signature-timestamp': String(now - 1) },
      });
    },
  ],
  [
    'correctly signed 16 minutes ago (a replay)',
    (h, body) => h.signer.request(body, { timestamp: Math.floor(Date.now() / 1000) - 16 * 60 }),
  ],
  [
    'correctly signed 16 minutes in the future',
    (h, body) => h.signer.request(body, { timestamp: Math.floor(Date.now() / 1000) + 16 * 60 }),
  ],
  ['no signature headers', (h, body) => h.signer.request(body, { unsigned: true })],
  [
    'no timestamp header',
    (h, body) => {
      const { 'x-signature-ed25519': signature } = h.signer.sign(body);
      return h.signer.request(body, {
        unsigned: true,
        headers: { 'x-signature-ed25519': signature },
      });
    },
  ],
  [
    'a malformed signature',
    (h, body) => h.signer.request(body, { headers: { 'x-signature-ed25519': 'not-hex' } }),
  ],
  [
    'a malformed timestamp',
    (h, body) => h.signer.request(body, { headers: { 'x-signature-timestamp': 'soon' } }),
  ],
];

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('interaction request verification', () => {
    failOnUnhandledRejections();
    let h: Harness;
    let gate = deferred();
    const handled: string[] = [];
    const handler: Handler = async (ctx) => {
      handled.push(ctx.event.id);
      if (ctx.event.command === 'hold') await gate.promise;
    };

    afterEach(async () => {
      gate.resolve();
      await h.close();
      handled.length = 0;
    });

    async function start(): Promise<void> {
      gate = deferred();
      h = await startHarness({ transport, runtime: { maxDetached: 1 } });
      h.runtime.on(() => true, handler);
    }

    async function saturate(): Promise<void> {
      const hold = await h.send(buildChatInputCommand({ name: 'hold' }));
      expect(await hold.json()).toEqual({ type: 5 });
      expect(h.runtime.stats().detachedInFlight).toBe(1);
    }

    it('accepts a valid signature and dispatches', async () => {
      await start();
      const response = await h.send(buildButton());
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ type: 6 });
      await expect.poll(() => handled.length).toBe(1);
    });

    for (const [state, prepare] of [
      ['idle', async () => {}],
      ['saturated', saturate],
      ['shutting down', async () => void h.runtime.shutdown({ graceMs: 60_000 })],
    ] as const) {
      describe(`while ${state}`, () => {
        it.each(tampered)(
          'answers 401 to a request %s and dispatches nothing',
          async (_name, tamper) => {
            await start();
            await prepare();
            const before = handled.length;
            const received = h.runtime.stats().received;
            const response = await h.serve(tamper(h, JSON.stringify(buildChatInputCommand())));
            expect(response.status).toBe(401);
            expect(await response.text()).toBe('');
            expect(h.runtime.stats().received).toBe(received);
            expect(handled.length).toBe(before);
            expect(h.notices('signature_rejected')).toHaveLength(1);
            expect(h.fake.calls).toEqual([]);
          },
        );

        it('answers a signed PING with {"type":1}, never gated', async () => {
          await start();
          await prepare();
          const response = await h.send(buildPing());
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
          expect(await response.text()).toBe('{"type":1}');
        });

        it('answers an unsigned PING 401 (Discord checks that the endpoint refuses it)', async () => {
          await start();
          await prepare();
          const response = await h.serve(h.signer.request(buildPing(), { unsigned: true }));
          expect(response.status).toBe(401);
        });
      });
    }

    it('answers 405 to anything but POST', async () => {
      await start();
      const response = await h.serve(new Request('http://127.0.0.1/interactions'));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    });
  });

  describe('before the adapter is attached to a runtime', () => {
    it('answers PING before the adapter is attached; other interactions get 503 then', async () => {
      const signer = createDiscordSigner();
      const adapter = createDiscordAdapter({
        publicKey: signer.publicKey,
        applicationId: '100000000000000001',
        token: 'unused',
      });
      expect(await (await transport.serve(adapter)(signer.request(buildPing()))).json()).toEqual({
        type: 1,
      });
      expect((await transport.serve(adapter)(signer.request(buildButton()))).status).toBe(503);
    });
  });
});

describe('the freshness window', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("refuses a request outside signatureToleranceMs of the adapter's clock, with a stale_timestamp notice", async () => {
    const nowMs = 1_800_000_000_000;
    h = await startHarness({ adapter: { clock: () => nowMs, signatureToleranceMs: 60_000 } });
    h.runtime.on(
      () => true,
      async () => {},
    );
    const body = JSON.stringify(buildButton());
    const signedAt = (s: number) => h?.signer.request(body, { timestamp: s }) as Request;
    const nowS = nowMs / 1000;

    expect((await h.adapter.handler(signedAt(nowS - 61))).status).toBe(401);
    expect((await h.adapter.handler(signedAt(nowS + 61))).status).toBe(401);
    expect(h.notices('signature_rejected').map((n) => n.detail)).toEqual([
      { reason: 'stale_timestamp' },
      { reason: 'stale_timestamp' },
    ]);
    expect(h.runtime.stats().received).toBe(0);

    const fresh = await h.adapter.handler(signedAt(nowS - 60));
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toEqual({ type: 6 });
  });

  it('accepts a request signed 14 minutes ago by default (15 minutes, an interaction token)', async () => {
    h = await startHarness();
    h.runtime.on(
      () => true,
      async () => {},
    );
    const response = await h.adapter.handler(
      h.signer.request(buildButton(), { timestamp: Math.floor(Date.now() / 1000) - 14 * 60 }),
    );
    expect(response.status).toBe(200);
  });

  it('refuses a signatureToleranceMs that is not a positive integer, naming it', () => {
    const base = { applicationId: '100000000000000001', token: 't' };
    for (const signatureToleranceMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => createDiscordAdapter({ ...base, signatureToleranceMs })).toThrow(
        /signatureToleranceMs/,
      );
    }
  });
});
