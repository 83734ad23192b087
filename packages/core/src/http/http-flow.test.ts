import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonAnswer, OK_ANSWER } from './http-answer.js';
import type { HttpDeliveryFacts, HttpEndpoint } from './http-flow.js';
import { createNodeListener } from './node-shell.js';
import { createFetchHandler } from './web-shell.js';

type Notice = { name: string; detail?: unknown; error?: unknown };

/**
 * A toy platform: header `x-sig` must be `ok` (`probe` on an unsigned body answers 200), the body
 * must end with `!` to verify, and parses as JSON.
 */
function toyEndpoint(overrides: Partial<HttpEndpoint<unknown>> = {}) {
  const notices: Notice[] = [];
  const answered: { payload: unknown; facts: HttpDeliveryFacts }[] = [];
  const delivered: unknown[] = [];
  let now = 1_000;
  const endpoint: HttpEndpoint<unknown> = {
    bodyLimitBytes: 64,
    clock: () => now++,
    ackDeadlineMs: 3000,
    syncDeadlineMs: 2000,
    notice: (name, detail, error) => void notices.push({ name, detail, error }),
    checkHeaders: (request) =>
      request.header('x-sig') === 'ok' ? { ok: true } : { ok: false, reason: 'no-sig' },
    answerUnsigned: (body) => (body === 'probe' ? OK_ANSWER : undefined),
    verify: (body) => (body.endsWith('!') ? { ok: true } : { ok: false, reason: 'mismatch' }),
    parse: (body) => JSON.parse(body.slice(0, -1)),
    answer(payload, facts) {
      answered.push({ payload, facts });
      return jsonAnswer({ got: payload }, { onDelivered: () => delivered.push(payload) });
    },
    ...overrides,
  };
  return { endpoint, notices, answered, delivered };
}

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

const SHELLS = [
  {
    name: 'web shell',
    client: async (endpoint: HttpEndpoint<unknown>) => createFetchHandler(endpoint),
  },
  {
    name: 'native shell',
    client: async (endpoint: HttpEndpoint<unknown>) => {
      const server = createServer(createNodeListener(endpoint));
      servers.push(server);
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return async (request: Request) =>
        fetch(`${origin}/hook`, {
          method: request.method,
          headers: request.headers,
          ...(request.method === 'GET' ? {} : { body: await request.arrayBuffer() }),
        });
    },
  },
];

function post(body: string, headers: Record<string, string> = { 'x-sig': 'ok' }): Request {
  return new Request('http://127.0.0.1/hook', { method: 'POST', headers, body });
}

describe.each(SHELLS)('serveHttp over the $name', ({ client }) => {
  it('answers a verified, parsed payload with the receipt time read once from the clock', async () => {
    const toy = toyEndpoint();
    const response = await (await client(toy.endpoint))(post('{"a":1}!'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ got: { a: 1 } });
    expect(toy.answered).toHaveLength(1);
    expect(toy.answered[0]?.facts.receivedAt).toBe(1_000);
    expect(toy.answered[0]?.facts.clock.receivedAt).toBe(1_000);
    expect(toy.delivered).toEqual([{ a: 1 }]);
  });

  it('answers 405 with allow: POST to anything but POST, reading nothing', async () => {
    const toy = toyEndpoint();
    const response = await (await client(toy.endpoint))(new Request('http://127.0.0.1/hook'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(toy.answered).toEqual([]);
  });

  it('answers 401 to failing headers whatever the body size, with a signature_rejected notice', async () => {
    const toy = toyEndpoint();
    const serve = await client(toy.endpoint);
    const response = await serve(post('x'.repeat(10_000), {}));
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('');
    expect(toy.notices).toEqual([
      { name: 'signature_rejected', detail: { reason: 'no-sig' }, error: undefined },
    ]);
  });

  it("answers an unsigned platform probe with the endpoint's answer", async () => {
    const toy = toyEndpoint();
    const response = await (await client(toy.endpoint))(post('probe', {}));
    expect(response.status).toBe(200);
    expect(toy.notices).toEqual([]);
  });

  it('answers 413 to a body over the limit, before verifying it', async () => {
    const toy = toyEndpoint();
    const response = await (await client(toy.endpoint))(post(`${'x'.repeat(100)}!`));
    expect(response.status).toBe(413);
    expect(await response.text()).toBe('Payload Too Large');
    expect(toy.notices).toEqual([]);
  });

  it('answers 401 to a bad signature and 400 to an unparsable body, never answering either', async () => {
    const toy = toyEndpoint();
    const serve = await client(toy.endpoint);
    expect((await serve(post('{"a":1}'))).status).toBe(401);
    const bad = await serve(post('{"a":!'));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/^Bad Request: /);
    expect(toy.answered).toEqual([]);
  });

  it('answers 500 with a request_failed notice when the endpoint throws', async () => {
    const failure = new Error('bug');
    const toy = toyEndpoint({
      answer: () => {
        throw failure;
      },
    });
    const response = await (await client(toy.endpoint))(post('{}!'));
    expect(response.status).toBe(500);
    expect(toy.notices).toEqual([{ name: 'request_failed', detail: undefined, error: failure }]);
  });

  it('passes a web Response an application built through as is', async () => {
    const toy = toyEndpoint({
      answer: () => new Response('own', { status: 202, headers: { 'x-own': 'yes' } }),
    });
    const response = await (await client(toy.endpoint))(post('{}!'));
    expect(response.status).toBe(202);
    expect(response.headers.get('x-own')).toBe('yes');
    expect(await response.text()).toBe('own');
  });
});

describe('the web shell', () => {
  it('runs onDelivered only when the server reads the body, never for an answer nobody reads', async () => {
    const toy = toyEndpoint();
    const response = await createFetchHandler(toy.endpoint)(post('{"a":2}!'));
    expect(toy.delivered).toEqual([]);
    await response.text();
    expect(toy.delivered).toEqual([{ a: 2 }]);
  });
});
