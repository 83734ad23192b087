import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nowMs } from './clock.js';
import { type RawOutcome, RawPool, serializeRequest } from './raw-pool.js';

let server: Server | undefined;
let pool: RawPool | undefined;
afterEach(async () => {
  pool?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = pool = undefined;
});

/** A loopback server whose listener is `listener`; resolves its port. */
async function serve(listener: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function sendOne(target: RawPool, request: Buffer): Promise<RawOutcome> {
  return new Promise((resolve) => target.send(request, resolve));
}

describe('RawPool', () => {
  it('sends serialised requests the server reads whole, one in flight per connection', async () => {
    const bodies: string[] = [];
    let inFlight = 0;
    let peak = 0;
    const port = await serve((req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        bodies.push(`${req.method} ${req.url} ${req.headers['x-test']} ${body}`);
        setTimeout(() => {
          inFlight -= 1;
          res.writeHead(503, { 'content-length': '2' }).end('no');
        }, 5);
      });
    });
    pool = new RawPool(port, '127.0.0.1', 2);
    const requests = Array.from({ length: 6 }, (_, n) =>
      serializeRequest(`127.0.0.1:${port}`, '/slack/events', { 'x-test': `t${n}` }, `{"n":${n}}`),
    );
    const outcomes = await Promise.all(requests.map((request) => sendOne(pool!, request)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array.from({ length: 6 }, () => 503));
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toEqual([]);
    for (const outcome of outcomes) expect(outcome.answeredAt).toBeLessThanOrEqual(nowMs());
    expect(bodies.sort()).toEqual(
      Array.from({ length: 6 }, (_, n) => `POST /slack/events t${n} {"n":${n}}`).sort(),
    );
    expect(peak).toBeLessThanOrEqual(2);
  });

  it('reconnects after a Connection: close answer and keeps sending', async () => {
    let answered = 0;
    const port = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        answered += 1;
        res.shouldKeepAlive = answered % 2 === 0;
        res.writeHead(200, { 'content-length': '0' }).end();
      });
    });
    pool = new RawPool(port, '127.0.0.1', 1);
    const request = serializeRequest(`127.0.0.1:${port}`, '/', {}, '{}');
    for (let n = 0; n < 4; n += 1) {
      const outcome = await sendOne(pool, request);
      expect(outcome.status).toBe(200);
      expect(outcome.error).toBeUndefined();
    }
    expect(answered).toBe(4);
    // Answers 1 and 3 said `Connection: close`: the connections for 2 and 4 were new ones.
    expect(pool.reconnects).toBe(2);
  });

  it('ends a request whose connection dies before its answer with an error', async () => {
    const port = await serve((req) => {
      req.resume();
      req.on('end', () => req.socket.destroy());
    });
    pool = new RawPool(port, '127.0.0.1', 1);
    const outcome = await sendOne(pool, serializeRequest(`127.0.0.1:${port}`, '/', {}, '{}'));
    expect(outcome.status).toBe(0);
    expect(outcome.error).toBeInstanceOf(Error);
  });
});
