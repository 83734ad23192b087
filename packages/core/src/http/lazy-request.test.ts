import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyRequest } from './lazy-request.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function capture(
  use: (request: Request, res: ServerResponse, req: IncomingMessage) => Promise<void>,
): Promise<string> {
  server = createServer((req, res) => {
    void use(lazyRequest(req, res), res, req);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('lazyRequest', () => {
  it('answers method, url and headers from the IncomingMessage without touching the body stream', async () => {
    let seen: Record<string, unknown> = {};
    const url = await capture(async (request, res, req) => {
      seen = {
        method: request.method,
        url: request.url,
        a: request.headers.get('x-a'),
        instance: request instanceof Request,
        bodyListeners: req.listenerCount('data') + req.listenerCount('readable'),
        flowing: req.readableFlowing,
      };
      res.end('ok');
    });
    await (
      await fetch(`${url}/path?q=1`, { method: 'POST', headers: { 'x-a': 'one' }, body: 'hi' })
    ).text();
    expect(seen).toEqual({
      method: 'POST',
      url: `${url}/path?q=1`,
      a: 'one',
      instance: true,
      bodyListeners: 0,
      flowing: null,
    });
  });

  it('builds the real Request, once, when the body is used', async () => {
    let seen: Record<string, unknown> = {};
    const url = await capture(async (request, res) => {
      const clone = request.clone();
      seen = { text: await request.text(), cloned: await clone.text(), used: request.bodyUsed };
      res.end('ok');
    });
    await (await fetch(url, { method: 'POST', body: 'hello' })).text();
    expect(seen).toEqual({ text: 'hello', cloned: 'hello', used: true });
  });

  it('aborts its signal when the client goes away before the answer', async () => {
    const aborted = new Promise<boolean>((resolve) => {
      void capture(async (request) => {
        request.signal.addEventListener('abort', () => resolve(true));
      }).then(async (url) => {
        const controller = new AbortController();
        const sending = fetch(url, { method: 'POST', body: 'x', signal: controller.signal });
        setTimeout(() => controller.abort(), 50);
        await sending.catch(() => undefined);
      });
    });
    expect(await aborted).toBe(true);
  });
});
