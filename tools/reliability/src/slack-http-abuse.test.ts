import { connect, type Socket } from 'node:net';
import { buildAppMentionEvent, createSlackSigner } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { type Deferred, deferred, until } from './support/deferred.js';
import { recordFigures } from './support/figures.js';
import { BED_SECRET, type SlackBed, startSlackBed } from './support/slack-bed.js';

const LIMIT = 64 * 1024;

/** A raw HTTP/1.1 client on loopback: writes what it is told, reads the status line back. */
class RawClient {
  readonly socket: Socket;
  received = '';
  readonly closed: Promise<void>;
  constructor(url: string) {
    const { port } = new URL(url);
    this.socket = connect({ host: '127.0.0.1', port: Number(port) });
    this.socket.on('data', (chunk) => {
      this.received += chunk.toString('latin1');
    });
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }
  head(headers: Record<string, string>): void {
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
    this.socket.write(
      `POST /slack/events HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines.join('\r\n')}\r\n\r\n`,
    );
  }
  /** The status of the first response, once its line has arrived. */
  async status(): Promise<number> {
    await until(() => /^HTTP\/1\.1 \d{3}/.test(this.received) || this.socket.destroyed);
    return Number(this.received.slice(9, 12));
  }
  /** Writes `total` bytes in `chunk`-sized pieces, waiting for the socket to drain each time. */
  async pour(total: number, chunk: number): Promise<number> {
    let written = 0;
    const piece = Buffer.alloc(chunk, 120);
    while (written < total && !this.socket.destroyed && this.received === '') {
      const ok = this.socket.write(piece);
      written += chunk;
      if (!ok) {
        await Promise.race([
          new Promise((resolve) => this.socket.once('drain', resolve)),
          this.closed,
          until(() => this.received !== ''),
        ]);
      }
    }
    return written;
  }
}

describe('abusive HTTP clients against the Slack handler', () => {
  let bed: SlackBed | undefined;
  const clients: RawClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.destroy();
    await bed?.close();
    bed = undefined;
  });

  it('answers 413 to signed oversized bodies having read at most the limit plus one chunk', async () => {
    let pulled = 0;
    let pulledAtAnswer = -1;
    bed = await startSlackBed({
      adapter: { bodyLimitBytes: LIMIT },
      wrapHandler: (handler) => async (request: Request) => {
        const counted = request.body?.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              pulled += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        );
        const response = await handler(
          new Request(request.url, {
            method: request.method,
            headers: request.headers,
            body: counted ?? null,
            duplex: 'half',
          } as RequestInit),
        );
        pulledAtAnswer = pulled;
        return response;
      },
    });
    const figures: Record<string, number>[] = [];
    for (const [declared, sent] of [
      [String(16 * 1024 * 1024), 16 * 1024 * 1024],
      [undefined, 16 * 1024 * 1024],
    ] as const) {
      pulled = 0;
      pulledAtAnswer = -1;
      const client = new RawClient(bed.url);
      clients.push(client);
      client.head({
        'content-type': 'application/json',
        ...createSlackSigner(BED_SECRET).sign('x'),
        ...(declared === undefined
          ? { 'transfer-encoding': 'chunked' }
          : { 'content-length': declared }),
      });
      if (declared === undefined) {
        // One huge chunk declared up front: the server reads it piecewise.
        client.socket.write(`${sent.toString(16)}\r\n`);
      }
      const written = await client.pour(sent, 16 * 1024);
      expect(await client.status()).toBe(413);
      // A declared length over the limit is refused before reading; a chunked body is read up to
      // the limit and one chunk past it, never more.
      expect(pulledAtAnswer).toBeGreaterThanOrEqual(0);
      expect(pulledAtAnswer).toBeLessThanOrEqual(LIMIT + 64 * 1024);
      if (declared === undefined) expect(pulledAtAnswer).toBeGreaterThan(LIMIT);
      client.socket.destroy();
      await client.closed;
      // What is discarded after the answer stays under the adapter's cap (8x the limit). Each
      // read stops at the first chunk past its bound, so the whole is at most the limit and 8x
      // the limit, one chunk past each, and the chunk this test's counting pipe reads ahead.
      expect(pulled).toBeLessThanOrEqual(9 * LIMIT + 3 * 64 * 1024);
      figures.push({ limit: LIMIT, sentUpTo: sent, written, readAtAnswer: pulledAtAnswer });
    }
    expect(bed.runtime.stats().received).toBe(0);
    recordFigures('slack-oversized', { cases: figures });
  });

  it('lets no slow-loris client, trickling a signed body byte by byte, hold a slot or a handler', async () => {
    bed = await startSlackBed({ runtime: { maxDetached: 2, concurrency: 'concurrent' } });
    const gates: Deferred<void>[] = [];
    const handled: string[] = [];
    bed.runtime.onMention(async (ctx) => {
      handled.push(ctx.event.id);
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
    });
    // Ten clients send valid signed headers, then their body one byte at a time.
    const lorisBodies = Array.from({ length: 10 }, (_, i) =>
      buildAppMentionEvent({ eventId: `EvLORIS${i}` }),
    );
    let trickled = 0;
    for (const payload of lorisBodies) {
      const client = new RawClient(bed.url);
      clients.push(client);
      client.head({
        'content-type': payload.contentType,
        'content-length': String(Buffer.byteLength(payload.body)),
        ...createSlackSigner(BED_SECRET).sign(payload.body),
      });
    }
    const trickle = setInterval(() => {
      for (const [i, client] of clients.entries()) {
        const body = lorisBodies[i]!.body;
        // Never the last byte: the body stays incomplete for the whole test.
        const at = Math.min(trickled, body.length - 2);
        client.socket.write(body.slice(at, at + 1));
      }
      trickled += 1;
    }, 5);
    try {
      await until(() => trickled >= 20);
      // Meanwhile two real deliveries fill the bound of 2, and a third is refused for capacity.
      const post = (eventId: string) => {
        const payload = buildAppMentionEvent({ eventId });
        return fetch(bed!.url, {
          method: 'POST',
          headers: {
            'content-type': payload.contentType,
            ...createSlackSigner(BED_SECRET).sign(payload.body),
          },
          body: payload.body,
        });
      };
      expect((await post('EvREAL1')).status).toBe(200);
      expect((await post('EvREAL2')).status).toBe(200);
      await until(() => gates.length === 2);
      expect((await post('EvREAL3')).status).toBe(503);
      const stats = bed.runtime.stats();
      expect(stats.received).toBe(3);
      expect(stats.detachedInFlight).toBe(2);
      expect(handled).toEqual(['EvREAL1', 'EvREAL2']);
      for (const client of clients) expect(client.received).toBe('');
      for (const gate of gates) gate.resolve();
      await until(() => bed!.runtime.stats().detachedInFlight === 0);
      expect((await post('EvREAL3')).status).toBe(200);
      recordFigures('slack-slow-loris', {
        clients: clients.length,
        bytesTrickledEach: trickled,
        maxDetached: 2,
      });
    } finally {
      clearInterval(trickle);
      for (const gate of gates) gate.resolve();
    }
  });
});
