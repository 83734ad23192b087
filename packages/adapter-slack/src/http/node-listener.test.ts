import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failOnUnhandledRejections, fakeRuntimeHandle } from '@rt/testing/adapter';
import { buildViewSubmission, createSlackSigner } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';
import { NOW_S, SECRET, unitAdapter } from '../test-support/harness.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listen(adapter: SlackAdapter): Promise<string> {
  server = createServer(adapter.nodeListener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
}

/** Posts `chunks` with chunked encoding (no content-length); resolves the status. */
function postChunked(url: string, headers: Record<string, string>, chunks: Buffer[]) {
  return new Promise<number>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('the native node:http listener', () => {
  failOnUnhandledRejections();

  it("writes a sync handler's own web Response as is: status, headers and body", async () => {
    const runtime = fakeRuntimeHandle(async () => ({
      status: 'completed',
      outcome: 'completed',
      response: new Response('{"response_action":"clear"}', {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-custom': 'yes' },
      }),
    }));
    runtime.modeFor = () => 'sync';
    const { adapter } = unitAdapter(runtime);
    const url = await listen(adapter);
    const payload = buildViewSubmission();
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': payload.contentType,
        ...createSlackSigner(SECRET).sign(payload.body, NOW_S),
      },
      body: payload.body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-custom')).toBe('yes');
    expect(await response.json()).toEqual({ response_action: 'clear' });
  });

  it('answers 413 to a signed oversized chunked body, dispatching nothing, and keeps serving', async () => {
    const { adapter, runtime } = unitAdapter();
    const url = await listen(adapter);
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(128 * 1024, 120));
    const signed = createSlackSigner(SECRET).sign('', NOW_S);
    const headers = { 'content-type': 'application/json', ...signed };
    expect(await postChunked(url, headers, chunks)).toBe(413);
    expect(runtime.dispatched).toHaveLength(0);
    expect(await postChunked(url, headers, [Buffer.from('{}')])).toBe(401);
  });

  it('answers 405 with an allow header to anything but POST', async () => {
    const { adapter } = unitAdapter();
    const response = await fetch(await listen(adapter));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('reading it without a signing secret throws a TypeError naming the option', () => {
    const { adapter } = unitAdapter();
    expect(() => adapter.nodeListener).not.toThrow();
    expect(() => createSlackAdapter({ botToken: 'xoxb-x' }).nodeListener).toThrow(/signingSecret/);
  });
});
