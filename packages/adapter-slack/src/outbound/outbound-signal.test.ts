import type { RtEvent } from '@rt/core';
import { fakeRuntimeHandle } from '@rt/testing/adapter';
import { buildMessageEvent, type FakeSlackApi, startFakeSlackApi } from '@rt/testing/slack';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlackAdapterOptions } from '../options.js';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';
import { SECRET } from '../test-support/harness.js';
import { withSignal } from './signal-web-client.js';

function eventOf(): RtEvent {
  const data = buildMessageEvent({ channel: 'C1' }).data;
  const event = data.event as { ts: string };
  return {
    adapter: 'slack',
    tenant: 'T0TEAM',
    id: String(data.event_id),
    kind: 'message',
    shape: 'event_callback',
    channel: 'C1',
    thread: event.ts,
    receivedAt: Date.now(),
    payload: data,
  };
}

describe('outbound calls with a signal', () => {
  let fake: FakeSlackApi;
  let agent: Agent | undefined;
  beforeEach(async () => {
    fake = await startFakeSlackApi();
  });
  afterEach(async () => {
    await agent?.destroy();
    agent = undefined;
    await fake.close();
  });

  function adapterWith(options: Partial<SlackAdapterOptions> = {}): SlackAdapter {
    const adapter = createSlackAdapter({
      signingSecret: SECRET,
      botToken: 'xoxb-signal',
      apiUrl: fake.url,
      webClientOptions: { retryConfig: { retries: 0 } },
      ...options,
    } as SlackAdapterOptions);
    adapter.attach(fakeRuntimeHandle());
    return adapter;
  }

  it('passes the signal to the HTTP request: an abort frees the connection a hung call held', async () => {
    // One connection only: a request left running would hold it, and the next call could never go out.
    const only = new Agent({ connections: 1 });
    agent = only;
    const fetch = ((url: string | URL, init?: RequestInit) =>
      undiciFetch(url, { ...init, dispatcher: only } as Parameters<
        typeof undiciFetch
      >[1])) as never;
    // A long per-attempt timeout: only the abort can end the hung request in time.
    const adapter = adapterWith({
      webClientOptions: { fetch, timeout: 60_000, retryConfig: { retries: 0 } },
    });
    fake.hang('chat.postMessage');
    const controller = new AbortController();
    const posting = adapter.reply(eventOf(), 'hello', { signal: controller.signal });
    await fake.waitForCalls('chat.postMessage');
    const reason = new Error('delivery aborted');
    controller.abort(reason);
    await expect(posting).rejects.toBe(reason);
    await expect(adapter.react(eventOf(), 'eyes')).resolves.toBeUndefined();
    expect(fake.callsTo('reactions.add')).toHaveLength(1);
  });

  it('does not retry an aborted call, however generous the retry policy', async () => {
    const adapter = adapterWith({
      webClientOptions: { retryConfig: { retries: 5, minTimeout: 60_000, maxTimeout: 60_000 } },
    });
    fake.hang('chat.postMessage');
    const client = await adapter.client(eventOf());
    const controller = new AbortController();
    const call = client.chat.postMessage(
      withSignal({ channel: 'C1', text: 'hello' }, controller.signal),
    );
    await fake.waitForCalls('chat.postMessage');
    controller.abort(new Error('stop'));
    // A retry would wait 60 s first: the call rejects now instead.
    await expect(call).rejects.toThrow();
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('rejects at once with an already aborted signal, calling nothing', async () => {
    const adapter = adapterWith();
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    const event = eventOf();
    const { signal } = controller;
    const calls = [
      adapter.reply(event, 'x', { signal }),
      adapter.post(event, 'x', { signal }),
      adapter.update(event, { channel: 'C1', ts: '1.2' }, 'x', { signal }),
      adapter.react(event, 'eyes', undefined, { signal }),
      adapter.postEphemeral(event, 'x', { user: 'U1', signal }),
      adapter.updateView(
        event,
        { type: 'modal', title: { type: 'plain_text', text: 't' }, blocks: [] },
        { viewId: 'V1', signal },
      ),
      adapter.readHistory(event, { signal }),
    ];
    const settled = await Promise.allSettled(calls);
    expect(settled).toEqual(calls.map(() => ({ status: 'rejected', reason: signal.reason })));
    expect(fake.calls).toEqual([]);
  });

  it('gives up on a token resolver still pending at the abort', async () => {
    const adapter = adapterWith({
      botToken: undefined,
      tokenResolver: () => new Promise<string>(() => {}),
    });
    const controller = new AbortController();
    const posting = adapter.post(eventOf(), 'x', { signal: controller.signal });
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(posting).rejects.toBe(reason);
  });
});
