import { deferred } from '@rt/testing';
import {
  closeHttpTransports,
  failOnUnhandledRejections,
  fakeRuntimeHandle,
  HTTP_TRANSPORTS,
} from '@rt/testing/adapter';
import { createSlackSigner } from '@rt/testing/slack';
import { afterAll, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../slack-adapter.js';
import { NOW_MS, NOW_S, SECRET, unitAdapter } from '../test-support/harness.js';

function chunkedBody(count: number, size: number) {
  const chunk = new Uint8Array(size).fill(120);
  let pulled = 0;
  const closed = deferred();
  const cancelled = deferred();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= count) {
        controller.close();
        closed.resolve();
        return;
      }
      pulled += 1;
      controller.enqueue(chunk);
    },
    cancel() {
      cancelled.resolve();
    },
  });
  return { stream, pulled: () => pulled, closed: closed.promise, cancelled: cancelled.promise };
}

function streamedRequest(body: ReadableStream<Uint8Array>, headers: object): Request {
  return new Request('http://127.0.0.1/slack/events', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(headers as Record<string, string>) },
    body,
    duplex: 'half',
  } as RequestInit);
}
describe.each(HTTP_TRANSPORTS)('a body over the limit, over the $name', (transport) => {
  failOnUnhandledRejections();
  afterAll(() => closeHttpTransports());

  it('answers 413 to a 5 MiB body without dispatching', async () => {
    const { adapter, runtime } = unitAdapter();
    const body = `{"type":"event_callback","pad":"${'x'.repeat(5 * 1024 * 1024)}"}`;
    const payload = { contentType: 'application/json', body, data: {} };
    const response = await transport.serve(adapter)(
      createSlackSigner(SECRET).request(payload, { timestamp: NOW_S }),
    );
    expect(response.status).toBe(413);
    expect(await response.text()).toBe('Payload Too Large');
    expect(runtime.dispatched).toHaveLength(0);
  });
});

/** Web request bodies: what the web handler reads of a stream, and when it stops. */
describe('body size and verification order (401 before 413)', () => {
  // Checked one macrotask after each test: background discards have had their turn.
  failOnUnhandledRejections();

  it('answers 413 to a signed oversized body streamed without a content-length, before reading it all', async () => {
    const { adapter, runtime } = unitAdapter();
    const body = chunkedBody(20, 256 * 1024);
    const response = await adapter.handler(
      streamedRequest(body.stream, createSlackSigner(SECRET).sign('', NOW_S)),
    );
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(body.pulled()).toBeLessThan(20);
    expect(runtime.dispatched).toHaveLength(0);
    // The rest is then read and discarded, so a client still sending gets to read the 413.
    await body.closed;
    expect(body.pulled()).toBe(20);
  });

  it('stops discarding after 413 at eight times the body limit and cancels the stream', async () => {
    const runtime = fakeRuntimeHandle();
    const adapter = createSlackAdapter({
      signingSecret: SECRET,
      botToken: 'xoxb-unit',
      clock: () => NOW_MS,
      bodyLimitBytes: 1024,
    });
    adapter.attach(runtime);
    const body = chunkedBody(Number.POSITIVE_INFINITY, 1024);
    const response = await adapter.handler(
      streamedRequest(body.stream, createSlackSigner(SECRET).sign('', NOW_S)),
    );
    expect(response.status).toBe(413);
    await body.cancelled;
    // 2 KiB read up to the limit, 9 KiB discarded (one chunk past 8 KiB), 1 chunk buffered ahead.
    expect(body.pulled()).toBeLessThanOrEqual(12);
  });

  it.each([
    ['no signature headers', {}],
    ['a stale timestamp', createSlackSigner(SECRET).sign('', NOW_S - 301)],
    [
      'a malformed signature',
      { 'x-slack-request-timestamp': String(NOW_S), 'x-slack-signature': 'v0=nothex' },
    ],
  ])(
    'answers 401, not 413, to an oversized body with %s, reading at most 4 KiB of it',
    async (_, headers) => {
      const { adapter, runtime } = unitAdapter();
      const body = chunkedBody(20, 1024);
      const response = await adapter.handler(streamedRequest(body.stream, headers));
      expect(response.status).toBe(401);
      // 4 KiB and the chunk that passes it, plus one chunk the stream buffers ahead.
      expect(body.pulled()).toBeLessThanOrEqual(6);
      expect(runtime.dispatched).toHaveLength(0);
      expect(runtime.observed).toContainEqual(
        expect.objectContaining({ type: 'adapter_notice', name: 'signature_rejected' }),
      );
    },
  );

  it('answers 401 to an unsigned body declaring 5 MiB without reading any of it', async () => {
    const { adapter, runtime } = unitAdapter();
    const body = chunkedBody(20, 256 * 1024);
    const response = await adapter.handler(
      streamedRequest(body.stream, { 'content-length': String(5 * 1024 * 1024) }),
    );
    expect(response.status).toBe(401);
    expect(body.pulled()).toBeLessThanOrEqual(1);
    expect(runtime.dispatched).toHaveLength(0);
  });
});
