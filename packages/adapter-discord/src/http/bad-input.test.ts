import { DEFAULT_BODY_LIMIT_BYTES } from '@rt/core/adapter';
import {
  closeHttpTransports,
  failOnUnhandledRejections,
  HTTP_TRANSPORTS,
} from '@rt/testing/adapter';
import { buildButton, buildChatInputCommand } from '@rt/testing/discord';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('bad input gets a clear 4xx and is never dispatched', () => {
    failOnUnhandledRejections();
    let h: Harness;
    const handled: string[] = [];

    afterEach(async () => {
      await h.close();
      handled.length = 0;
    });

    async function start(): Promise<void> {
      h = await startHarness({ transport });
      h.runtime.on(
        () => true,
        (ctx) => void handled.push(ctx.event.id),
      );
    }

    const withoutData = () => {
      const payload: Record<string, unknown> = { ...buildChatInputCommand() };
      delete payload.data;
      return payload;
    };

    it.each([
      ['truncated JSON', () => '{"type":2,"id":"1","data":{', /not valid JSON/],
      ['an empty body', () => '', /not valid JSON/],
      ['a JSON string', () => '"hello"', /not a JSON object/],
      [
        'an unknown interaction type',
        () => ({ ...buildButton(), type: 42 }),
        /unknown interaction type 42/,
      ],
      ['a non-numeric type', () => ({ ...buildButton(), type: '3' }), /no numeric type/],
      ['a command without data', withoutData, /no data/],
      ['a component without a token', () => ({ ...buildButton(), token: '' }), /no token/],
    ])('%s: 400 with the reason', async (_name, payload, reason) => {
      await start();
      const response = await h.send(payload());
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toMatch(reason);
      expect(h.runtime.stats().received).toBe(0);
      expect(handled).toEqual([]);
    });

    it('an oversized body: 413 when signed, 401 when unsigned, never read past the limit', async () => {
      await start();
      const big = { ...buildButton(), padding: 'x'.repeat(DEFAULT_BODY_LIMIT_BYTES) };
      const signed = await h.send(big);
      expect(signed.status).toBe(413);
      const unsigned = await h.serve(h.signer.request(big, { unsigned: true }));
      expect(unsigned.status).toBe(401);
      expect(h.runtime.stats().received).toBe(0);
    });
  });
});

describe('a web request body that fails mid-stream', () => {
  failOnUnhandledRejections();
  let h: Harness;
  afterEach(() => h.close());
  async function start(): Promise<void> {
    h = await startHarness();
  }

  it('is a 400, not a crash', async () => {
    await start();
    const headers = h.signer.sign('{}');
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('client went away'));
      },
    });
    const request = new Request('http://127.0.0.1/interactions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);
    const response = await h.serve(request);
    expect(response.status).toBe(400);
  });
});
