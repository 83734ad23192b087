import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PayloadTooLargeError } from '../errors.js';
import { toNodeListener } from './node-listener.js';
import { readBodyWithLimit } from './read-body.js';

let server: Server | undefined;

async function serve(
  handler: (request: Request) => Promise<Response>,
  onError?: (e: unknown) => void,
) {
  server = createServer(toNodeListener(handler, onError ? { onError } : {}));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  if (server) {
    server.close();
    await once(server, 'close');
    server = undefined;
  }
});

describe('toNodeListener', () => {
  it('passes method, path, headers and body through and writes the response back', async () => {
    const url = await serve(async (request) => {
      const body = await request.text();
      return Response.json(
        {
          method: request.method,
          path: new URL(request.url).pathname,
          header: request.headers.get('x-a'),
          body,
        },
        { status: 201, headers: { 'x-b': 'yes' } },
      );
    });
    const response = await fetch(`${url}/slack/events?x=1`, {
      method: 'POST',
      headers: { 'x-a': 'one' },
      body: 'payload=1',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-b')).toBe('yes');
    expect(await response.json()).toEqual({
      method: 'POST',
      path: '/slack/events',
      header: 'one',
      body: 'payload=1',
    });
  });

  it('answers a bare 500 when the handler throws, and reports the error', async () => {
    const errors: unknown[] = [];
    const url = await serve(
      async () => {
        throw new Error('boom');
      },
      (e) => errors.push(e),
    );
    const response = await fetch(url);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('');
    expect(errors).toMatchObject([{ message: 'boom' }]);
  });

  it('serves empty bodies', async () => {
    const url = await serve(async () => new Response(null, { status: 204 }));
    const response = await fetch(url, { method: 'POST', body: '' });
    expect(response.status).toBe(204);
  });
});

describe('readBodyWithLimit', () => {
  it('reads a body within the limit', async () => {
    await expect(
      readBodyWithLimit(new Request('http://x', { method: 'POST', body: 'héllo' }), 10),
    ).resolves.toBe('héllo');
  });

  it('refuses a declared content-length above the limit without reading', async () => {
    const request = new Request('http://x', {
      method: 'POST',
      body: 'x'.repeat(20),
      headers: { 'content-length': '20' },
    });
    await expect(readBodyWithLimit(request, 10)).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it('refuses a streamed body once it passes the limit', async () => {
    const chunks = [new Uint8Array(6), new Uint8Array(6), new Uint8Array(6)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const request = new Request('http://x', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    await expect(readBodyWithLimit(request, 10)).rejects.toMatchObject({
      code: 'RT_PAYLOAD_TOO_LARGE',
      limitBytes: 10,
    });
  });

  it('reads a missing body as empty', async () => {
    await expect(readBodyWithLimit(new Request('http://x'))).resolves.toBe('');
  });
});
