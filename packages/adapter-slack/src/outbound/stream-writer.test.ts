import {
  createRuntime,
  type Observation,
  type Runtime,
  type State,
  StreamInterruptedError,
} from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { observationLog, stateWith } from '@rt/testing';
import { mockTextStream } from '@rt/testing/ai';
import {
  buildAppMentionEvent,
  buildMessageEvent,
  createSlackSigner,
  type FakeSlackApi,
  type FakeSlackRateLimit,
  type SlackTestPayload,
  startFakeSlackApi,
} from '@rt/testing/slack';
import { streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SlackAdapterOptions } from '../options.js';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';
import { BOT_TOKEN, SECRET } from '../test-support/harness.js';
import { resolveSlackStreamOptions } from './stream-options.js';
import { slackRetryAfterMs } from './stream-rate-limit.js';

const INTERVAL_MS = 30;

interface StreamHarness {
  fake: FakeSlackApi;
  adapter: SlackAdapter;
  runtime: Runtime;
  state: State;
  observations: Observation[];
  send(payload: SlackTestPayload): Promise<Response>;
  observed(predicate: (o: Observation) => boolean): Promise<Observation>;
}

let h: StreamHarness | undefined;

async function start(
  options: {
    rateLimits?: Record<string, FakeSlackRateLimit>;
    streamRefusals?: Record<string, string>;
    adapter?: Partial<SlackAdapterOptions>;
    detachTimeoutMs?: number;
    lockTtlMs?: number;
    state?: State;
  } = {},
): Promise<StreamHarness> {
  const fake = await startFakeSlackApi({
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.streamRefusals === undefined ? {} : { streamRefusals: options.streamRefusals }),
  });
  const log = observationLog();
  const adapter = createSlackAdapter({
    signingSecret: SECRET,
    botToken: BOT_TOKEN,
    apiUrl: fake.url,
    webClientOptions: { retryConfig: { retries: 0 } },
    stream: { appendIntervalMs: INTERVAL_MS, updateIntervalMs: INTERVAL_MS },
    ...options.adapter,
  } as SlackAdapterOptions);
  const state = options.state ?? createMemoryState();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    observers: [log.observer],
    ...(options.detachTimeoutMs !== undefined ? { detachTimeoutMs: options.detachTimeoutMs } : {}),
    ...(options.lockTtlMs !== undefined ? { lockTtlMs: options.lockTtlMs } : {}),
  });
  h = {
    fake,
    adapter,
    runtime,
    state,
    observations: log.observations,
    send: (payload) => adapter.handler(createSlackSigner(SECRET).request(payload)),
    observed: (predicate) => log.observed(predicate),
  };
  return h;
}

afterEach(async () => {
  if (h === undefined) return;
  await h.runtime.shutdown({ graceMs: 0 });
  await h.fake.close();
  await h.state.close();
  h = undefined;
});

/** 10,000 two-character chunks, pausing now and then like a model does. */
async function* manyChunks(): AsyncGenerator<string> {
  for (let i = 0; i < 10_000; i += 1) {
    yield `${i % 10}${String.fromCharCode(97 + (i % 26))}`;
    if (i % 500 === 499) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const MANY = Array.from(
  { length: 10_000 },
  (_, i) => `${i % 10}${String.fromCharCode(97 + (i % 26))}`,
).join('');

/** A source that yields `head`, then never again; its iterator records `return()`. */
function stallingAfter(head: string) {
  const returned = vi.fn(async () => ({ done: true as const, value: undefined }));
  let first = true;
  const iterator: AsyncIterator<string> = {
    next: () => {
      if (!first) return new Promise(() => {});
      first = false;
      return Promise.resolve({ done: false, value: head });
    },
    return: returned,
  };
  return { source: { [Symbol.asyncIterator]: () => iterator }, returned };
}

function finished(o: Observation): o is Extract<Observation, { type: 'stream_finished' }> {
  return o.type === 'stream_finished';
}

describe('Slack streamed replies', () => {
  it('streams 10,000 chunks natively within the rate; the message is their concatenation', async () => {
    const { fake, runtime, send, observed } = await start({
      rateLimits: { 'chat.appendStream': { limit: 5, windowMs: 100 } },
    });
    let startedAt = 0;
    runtime.onMention(async (ctx) => {
      startedAt = Date.now();
      await ctx.stream(manyChunks());
    });
    await send(buildAppMentionEvent({ text: '<@U0BOT> go' }));
    const end = (await observed(finished)) as Extract<Observation, { type: 'stream_finished' }>;
    const elapsed = Date.now() - startedAt;

    expect(end).toMatchObject({ status: 'completed', path: 'slack-stream', chars: 20_000 });
    const [message] = fake.messages.all();
    expect(message?.text).toBe(MANY);
    expect(message?.stream).toBe('stopped');
    expect(message?.recipient).toEqual({ user: 'U0USER', team: 'T0TEAM' });
    const calls = ['chat.startStream', 'chat.appendStream', 'chat.stopStream'].map(
      (method) => fake.callsTo(method).length,
    );
    expect(calls[0]).toBe(1);
    expect(calls[2]).toBe(1);
    // One call per interval at most, and never refused by the platform's limit.
    expect(calls.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(elapsed / INTERVAL_MS + 2);
    expect(fake.messages.refused.get('chat.appendStream')).toBeUndefined();
  });

  it('grows a posted message with chat.update where native streaming is off', async () => {
    const { fake, runtime, send, observed } = await start({
      adapter: { stream: { native: false, updateIntervalMs: INTERVAL_MS } },
    });
    runtime.onMention((ctx) => ctx.stream(manyChunks()));
    await send(buildAppMentionEvent({ text: '<@U0BOT> go' }));
    const end = await observed(finished);

    expect(end).toMatchObject({ status: 'completed', path: 'slack-update' });
    expect(fake.messages.all().map((m) => m.text)).toEqual([MANY]);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(fake.callsTo('chat.startStream')).toHaveLength(0);
  });

  it('takes the update path for a conversation without a recipient (no user)', async () => {
    const { fake, runtime, send, observed } = await start();
    runtime.onMessage((ctx) => ctx.stream(mockTextStream(['Hi', ' there']).textStream));
    await send(buildMessageEvent({ botId: 'B0OTHER', text: 'from another bot', threadTs: '1.2' }));
    expect(await observed(finished)).toMatchObject({ path: 'slack-update', status: 'completed' });
    expect(fake.messages.all().map((m) => m.text)).toEqual(['Hi there']);
  });

  it('falls back to chat.update when Slack refuses chat.startStream, and loses no text', async () => {
    const { fake, runtime, send, observed } = await start({
      streamRefusals: { C0NOSTREAM: 'feature_not_enabled' },
    });
    runtime.onMention((ctx) => ctx.stream(manyChunks()));
    await send(buildAppMentionEvent({ channel: 'C0NOSTREAM', text: '<@U0BOT> go' }));
    const end = await observed(finished);

    expect(end).toMatchObject({ status: 'completed', path: 'slack-update' });
    expect(fake.callsTo('chat.startStream')).toHaveLength(1);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(fake.messages.all().map((m) => [m.text, m.stream])).toEqual([[MANY, undefined]]);
  });

  it('a chat.update 429 storm: the stream completes later, loses no text, never loops', async () => {
    const { fake, runtime, send, observed } = await start({
      adapter: { stream: { native: false, updateIntervalMs: INTERVAL_MS } },
      rateLimits: { 'chat.update': { limit: 2, windowMs: 1000 } },
    });
    const words = Array.from({ length: 40 }, (_, i) => `w${i} `);
    runtime.onMention((ctx) =>
      ctx.stream(mockTextStream(words, { chunkDelayInMs: 20 }).textStream, { flushChars: 10 }),
    );
    await send(buildAppMentionEvent({ text: '<@U0BOT> go' }));
    const end = (await observed(finished)) as Extract<Observation, { type: 'stream_finished' }>;

    expect(end.status).toBe('completed');
    expect(end.rateLimited).toBeGreaterThan(0);
    expect(fake.messages.all().map((m) => m.text)).toEqual([words.join('')]);
    const refused = fake.messages.refused.get('chat.update') ?? 0;
    // Each refusal was waited out (Retry-After), so refusals stay fewer than accepted updates + 1.
    expect(refused).toBeLessThanOrEqual((fake.messages.all()[0]?.edits ?? 0) + 1);
  }, 30_000);

  it('the AI SDK mock model streams through ctx.stream to the native stream', async () => {
    const { fake, runtime, send, observed } = await start();
    const deltas = ['The ', 'answer ', 'is ', '42', '.'];
    runtime.onMention((ctx) =>
      ctx.stream(mockTextStream(deltas, { chunkDelayInMs: 150 }).textStream, {
        flushIntervalMs: 200,
      }),
    );
    await send(buildAppMentionEvent({ text: '<@U0BOT> question' }));
    expect(await observed(finished)).toMatchObject({ status: 'completed', path: 'slack-stream' });
    expect(fake.messages.all()[0]).toMatchObject({ text: 'The answer is 42.', stream: 'stopped' });
  });

  it('a detach timeout stops the model (return()), ends the stream with the marker, timed-out', async () => {
    const { fake, runtime, send, observed } = await start({ detachTimeoutMs: 1500 });
    // A model that says one word and then hangs; its iterator records return().
    const returned = vi.fn(async () => ({ done: true as const, value: undefined }));
    let first = true;
    const iterator: AsyncIterator<string> = {
      next: () => {
        if (!first) return new Promise(() => {});
        first = false;
        return Promise.resolve({ done: false, value: 'Thinking' });
      },
      return: returned,
    };
    const source = { [Symbol.asyncIterator]: () => iterator };
    let error: unknown;
    runtime.onMention(async (ctx) => {
      error = await ctx.stream(source).catch((thrown: unknown) => thrown);
    });
    await send(buildAppMentionEvent({ text: '<@U0BOT> go' }));
    const done = await observed((o) => o.type === 'dispatch_finished');

    expect(done).toMatchObject({ outcome: 'timed-out' });
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(fake.messages.all()[0]).toMatchObject({
      text: 'Thinking\n\n_(interrupted)_',
      stream: 'stopped',
    });
    expect(h?.observations.find(finished)).toMatchObject({ status: 'interrupted' });
    expect(returned).toHaveBeenCalledTimes(1);
  });

  it('with abortSignal: ctx.signal, a detach timeout aborts the AI SDK request itself', async () => {
    const { fake, runtime, send, observed } = await start({ detachTimeoutMs: 1500 });
    const cancelled = vi.fn();
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        // The model says one word and then hangs, like a stalled provider.
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Thinking' });
          },
          cancel: cancelled,
        }),
      }),
    });
    runtime.onMention((ctx) =>
      ctx.stream(streamText({ model, prompt: 'go', abortSignal: ctx.signal }).textStream),
    );
    await send(buildAppMentionEvent({ text: '<@U0BOT> go' }));
    expect(await observed((o) => o.type === 'dispatch_finished')).toMatchObject({
      outcome: 'timed-out',
    });
    expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true);
    expect(cancelled).toHaveBeenCalledTimes(1);
    expect(fake.messages.all()[0]?.text).toBe('Thinking\n\n_(interrupted)_');
  });

  it('a lost lease ends the native stream with the marker; outcome preempted', async () => {
    let renewals = 0;
    const state = stateWith(createMemoryState(), (inner) => ({
      // The first renewal succeeds, the second finds the lease gone.
      renewLock: async (lease, ttlMs) => (++renewals > 1 ? false : inner.renewLock(lease, ttlMs)),
    }));
    const { fake, runtime, send, observed } = await start({ state, lockTtlMs: 900 });
    const { source, returned } = stallingAfter('Partial');
    runtime.onMention((ctx) => ctx.stream(source, { flushIntervalMs: 100 }));
    await send(buildAppMentionEvent({ text: '<@U0BOT> go' }));
    expect(await observed((o) => o.type === 'dispatch_finished')).toMatchObject({
      outcome: 'preempted',
    });
    expect(returned).toHaveBeenCalledTimes(1);
    expect(fake.messages.all()[0]).toMatchObject({
      text: 'Partial\n\n_(interrupted)_',
      stream: 'stopped',
    });
  });

  it('at shutdown a stream in flight gets the grace period, then ends with its marker', async () => {
    const { fake, runtime, send, observed } = await start();
    const { source, returned } = stallingAfter('Working');
    runtime.onMention((ctx) => ctx.stream(source, { flushIntervalMs: 50 }));
    await send(buildAppMentionEvent({ text: '<@U0BOT> go' }));
    await vi.waitFor(() => expect(fake.callsTo('chat.startStream')).toHaveLength(1));
    await runtime.shutdown({ graceMs: 200 });
    expect(await observed((o) => o.type === 'dispatch_finished')).toMatchObject({
      outcome: 'shutdown',
    });
    expect(returned).toHaveBeenCalledTimes(1);
    expect(fake.messages.all()[0]).toMatchObject({
      text: 'Working\n\n_(interrupted)_',
      stream: 'stopped',
    });
  });

  it('posts a reply whose whole text arrived before the first write as one message', async () => {
    const { fake, runtime, send, observed } = await start();
    runtime.onMention((ctx) => ctx.stream(mockTextStream(['Short', ' answer']).textStream));
    await send(buildAppMentionEvent({ text: '<@U0BOT> quick' }));
    expect(await observed(finished)).toMatchObject({ status: 'completed', writes: 1 });
    expect(fake.calls.map((call) => call.method)).toEqual(['chat.postMessage']);
    expect(fake.messages.all()[0]?.text).toBe('Short answer');
  });

  it('a source that throws ends the message with the error marker; outcome failed', async () => {
    const { fake, runtime, send, observed } = await start();
    async function* broken() {
      yield 'Half an answer';
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('provider 500');
    }
    runtime.onMention((ctx) => ctx.stream(broken()));
    await send(buildAppMentionEvent({ text: '<@U0BOT> go' }));
    const done = await observed((o) => o.type === 'dispatch_finished');
    expect(done).toMatchObject({ outcome: 'failed' });
    expect(fake.messages.all()[0]?.text).toBe('Half an answer\n\n_(error: reply incomplete)_');
  });
});

describe('Slack stream options and rate-limit answers', () => {
  it('validates stream options by name', () => {
    expect(() => resolveSlackStreamOptions({ updateIntervalMs: 0 })).toThrow(/updateIntervalMs/);
    expect(() => resolveSlackStreamOptions({ maxMessageChars: 50_000 })).toThrow(RangeError);
    expect(() => resolveSlackStreamOptions({ native: 'yes' as unknown as boolean })).toThrow(
      TypeError,
    );
  });

  it('reads Retry-After from both shapes of WebClient rate-limit errors', () => {
    expect(slackRetryAfterMs({ code: 'slack_webapi_rate_limited_error', retryAfter: 3 })).toBe(
      3000,
    );
    expect(
      slackRetryAfterMs(new Error('A rate limit was exceeded (url: chat.update, retry-after: 2)')),
    ).toBe(2000);
    expect(slackRetryAfterMs(new Error('channel_not_found'))).toBeUndefined();
  });
});
