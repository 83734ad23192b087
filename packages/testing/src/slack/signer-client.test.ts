import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAppMentionEvent } from './event-payloads.js';
import { SignerClient, SLACK_ACK_TIMEOUT_MS } from './signer-client.js';

/** A clock that reads 0 when the request starts and `endMs` every time after. */
function clockEndingAt(endMs: number): () => number {
  let reads = 0;
  return () => (reads++ === 0 ? 0 : endMs);
}

describe('SignerClient', () => {
  let server: Server;
  let url: string;
  const seen: Record<string, string | string[] | undefined>[] = [];

  beforeEach(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });
  afterEach(async () => {
    seen.length = 0;
    await new Promise((resolve) => server.close(resolve));
  });

  it('counts a response read within 3 s as an answer, and signs the request', async () => {
    const client = new SignerClient(url, 'secret', clockEndingAt(SLACK_ACK_TIMEOUT_MS));
    const result = await client.deliver(buildAppMentionEvent({ eventId: 'Ev1' }));
    expect(result).toMatchObject({ kind: 'response', status: 200, latencyMs: 3000 });
    expect(seen[0]?.['x-slack-signature']).toMatch(/^v0=[0-9a-f]{64}$/);
  });

  it('counts a complete 200 read after 3 s as a timeout, as Slack would', async () => {
    const client = new SignerClient(url, 'secret', clockEndingAt(SLACK_ACK_TIMEOUT_MS + 1));
    const result = await client.deliver(buildAppMentionEvent({ eventId: 'Ev2' }));
    expect(result).toEqual({ kind: 'timeout', latencyMs: 3001, lateStatus: 200 });
  });

  it('reports a refused connection as connection_failed, never throwing', async () => {
    await new Promise((resolve) => server.close(resolve));
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new SignerClient(url, 'secret');
    const result = await client.deliver(buildAppMentionEvent({ eventId: 'Ev3' }));
    expect(result.kind).toBe('connection_failed');
  });
});
