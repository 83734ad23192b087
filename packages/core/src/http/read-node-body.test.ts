import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { BodyRead } from './read-body.js';
import { discardNodeBody, readNodeBody } from './read-node-body.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/**
 * A loopback server reading each request with `read`, answering 200 with the outcome's type; the
 * read results are collected in order.
 */
async function serve(
  read: (req: IncomingMessage) => Promise<BodyRead>,
): Promise<{ port: number; reads: BodyRead[]; next: () => Promise<BodyRead> }> {
  const reads: BodyRead[] = [];
  const waiting: ((read: BodyRead) => void)[] = [];
  server = createServer(async (req, res) => {
    const result = await read(req);
    reads.push(result);
    waiting.shift()?.(result);
    if (result.type === 'too-large') discardNodeBody(req, 64 * 1024);
    res.writeHead(200, { 'content-type': 'text/plain' }).end(result.type);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    reads,
    next: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

/** Sends `chunks` (chunked unless `length` is given) and resolves the answer's status and body. */
function send(
  port: number,
  chunks: readonly Buffer[],
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        text += part;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('readNodeBody', () => {
  it('reads a body within the limit as UTF-8 text, across several chunks', async () => {
    const { port, reads } = await serve((req) => readNodeBody(req, 100));
    const answer = await send(port, [Buffer.from('hé'), Buffer.from('llo')]);
    expect(answer).toEqual({ status: 200, text: 'body' });
    expect(reads).toEqual([{ type: 'body', text: 'héllo' }]);
  });

  it('answers too-large for a declared content-length over the limit before reading any of it', async () => {
    const { port, reads } = await serve((req) => readNodeBody(req, 10));
    const body = Buffer.alloc(1000, 120);
    await send(port, [body], { 'content-length': String(body.length) });
    expect(reads).toEqual([{ type: 'too-large' }]);
  });

  it('stops at the limit for a chunked body, and the discarded rest still lets the client read the answer', async () => {
    const { port, reads } = await serve((req) => readNodeBody(req, 1024));
    const chunks = Array.from({ length: 8 }, () => Buffer.alloc(1024, 120));
    const answer = await send(port, chunks);
    expect(answer).toEqual({ status: 200, text: 'too-large' });
    expect(reads).toEqual([{ type: 'too-large' }]);
  });

  it('reads an empty body as empty text', async () => {
    const { port, reads } = await serve((req) => readNodeBody(req, 10));
    await send(port, [], { 'content-length': '0' });
    expect(reads).toEqual([{ type: 'body', text: '' }]);
  });

  it('is unreadable when the client goes away mid-body, and never rejects', async () => {
    const { port, next } = await serve((req) => readNodeBody(req, 1024 * 1024));
    const read = next();
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      headers: { 'content-length': '1000' },
    });
    req.on('error', () => {});
    req.write(Buffer.alloc(10, 120));
    req.once('socket', (socket) => socket.once('connect', () => setImmediate(() => req.destroy())));
    expect((await read).type).toBe('unreadable');
  });
});
