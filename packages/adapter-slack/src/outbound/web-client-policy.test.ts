import { fakeRuntimeHandle } from '@rt/testing/adapter';
import { buildMessageEvent, type FakeSlackApi, startFakeSlackApi } from '@rt/testing/slack';
import { WebAPIRateLimitedError } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';
import { SECRET } from '../test-support/harness.js';

/** The parts of a WebClient its constructor options end up in (not public API: test only). */
interface ClientInternals {
  readonly retryConfig: Record<string, unknown>;
  readonly timeout: number;
}

const eventOf = () => {
  const data = buildMessageEvent({ channel: 'C1' }).data;
  return {
    adapter: 'slack',
    tenant: 'T0TEAM',
    id: String(data.event_id),
    kind: 'message' as const,
    shape: 'event_callback',
    type: 'message',
    channel: 'C1',
    receivedAt: Date.now(),
    payload: data,
  };
};

describe('the WebClient policy', () => {
  let fake: FakeSlackApi;
  beforeEach(async () => {
    fake = await startFakeSlackApi();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await fake.close();
  });

  function adapterWith(webClientOptions?: Record<string, unknown>): SlackAdapter {
    const adapter = createSlackAdapter({
      signingSecret: SECRET,
      botToken: 'xoxb-policy',
      apiUrl: fake.url,
      ...(webClientOptions ? { webClientOptions } : {}),
    });
    adapter.attach(fakeRuntimeHandle());
    return adapter;
  }

  it('gives every client a 10 s timeout and the bounded retry policy by default', async () => {
    const client = (await adapterWith().client(eventOf())) as unknown as ClientInternals;
    expect(client.timeout).toBe(10_000);
    expect(client.retryConfig).toMatchObject({ retries: 2, maxRetryTime: 30_000 });
  });

  it('retries a failing call twice by default, then rejects: the slot is not held for half an hour', async () => {
    const adapter = adapterWith();
    fake.fail('chat.postMessage', { status: 500 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let outcome: string | undefined;
    void adapter.post(eventOf(), 'hello').then(
      () => {
        outcome = 'posted';
      },
      () => {
        outcome = 'rejected';
      },
    );
    // Real I/O to the fake interleaved with fake backoff time, until the call gives up.
    for (let turn = 0; outcome === undefined && turn < 2000; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(250);
    }
    expect(outcome).toBe('rejected');
    expect(fake.callsTo('chat.postMessage')).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(30 * 60 * 1000);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(3);
  });

  it('lets webClientOptions override the timeout and the retry policy', async () => {
    const adapter = adapterWith({ timeout: 500, retryConfig: { retries: 0 } });
    const client = (await adapter.client(eventOf())) as unknown as ClientInternals;
    expect(client.timeout).toBe(500);
    fake.fail('chat.postMessage', { status: 500 });
    await expect(adapter.post(eventOf(), 'hello')).rejects.toThrow();
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('with rejectRateLimitedCalls, a 429 rejects at once with WebAPIRateLimitedError', async () => {
    const limited = await startFakeSlackApi({
      rateLimits: { 'chat.postMessage': { limit: 1, windowMs: 60_000 } },
    });
    try {
      const adapter = createSlackAdapter({
        signingSecret: SECRET,
        botToken: 'xoxb-policy',
        apiUrl: limited.url,
        webClientOptions: { rejectRateLimitedCalls: true },
      });
      adapter.attach(fakeRuntimeHandle());
      await adapter.post(eventOf(), 'first');
      const error = await adapter.post(eventOf(), 'second').then(
        () => undefined,
        (rejected: unknown) => rejected,
      );
      expect(error).toBeInstanceOf(WebAPIRateLimitedError);
      expect(error).toMatchObject({ code: 'slack_webapi_rate_limited_error' });
      expect((error as WebAPIRateLimitedError).retryAfter).toBeGreaterThan(0);
      expect(limited.callsTo('chat.postMessage')).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });
});
