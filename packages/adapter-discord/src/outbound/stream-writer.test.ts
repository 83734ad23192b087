import { createRuntime, type Observation, type Runtime, type State } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { observationLog } from '@rt/testing';
import { mockTextStream } from '@rt/testing/ai';
import {
  buildChatInputCommand,
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_CHANNEL_MESSAGE_RATE,
  DISCORD_TEST_IDS,
  type FakeDiscord,
  type FakeDiscordRateLimit,
  type FakeDiscordRest,
  startFakeDiscord,
} from '@rt/testing/discord';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDiscordAdapter, type DiscordAdapter } from '../discord-adapter.js';
import type { DiscordAdapterOptions } from '../options.js';
import { discordRetryAfterMs, resolveDiscordStreamOptions } from './stream-writer.js';

const TOKEN = 'stream-bot-token';
const INTERVAL_MS = 30;

interface StreamHarness {
  fake: FakeDiscord;
  rest: FakeDiscordRest;
  adapter: DiscordAdapter;
  runtime: Runtime;
  state: State;
  observations: Observation[];
  /** Sends a slash command over HTTP (type 5 answer, then the handler streams). */
  command(): Promise<Response>;
  /** Sends a gateway MESSAGE_CREATE. */
  message(): void;
  observed(predicate: (o: Observation) => boolean): Promise<Observation>;
}

let h: StreamHarness | undefined;

async function start(
  options: {
    messageRate?: FakeDiscordRateLimit;
    adapter?: Partial<DiscordAdapterOptions>;
    detachTimeoutMs?: number;
    setup?: (runtime: Runtime) => void;
  } = {},
): Promise<StreamHarness> {
  const fake = await startFakeDiscord({
    rest: {
      tokens: [TOKEN],
      ...(options.messageRate ? { messageRate: options.messageRate } : {}),
    },
    gateway: { tokens: [TOKEN] },
  });
  const signer = createDiscordSigner();
  const log = observationLog();
  const adapter = createDiscordAdapter({
    publicKey: signer.publicKey,
    applicationId: DISCORD_TEST_IDS.applicationId,
    token: TOKEN,
    apiUrl: fake.rest.url,
    gateway: {},
    stream: { editIntervalMs: INTERVAL_MS, typingRenewMs: 100 },
    ...options.adapter,
  } as DiscordAdapterOptions);
  const state = createMemoryState();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    observers: [log.observer],
    ...(options.detachTimeoutMs !== undefined ? { detachTimeoutMs: options.detachTimeoutMs } : {}),
  });
  options.setup?.(runtime);
  await runtime.start();
  h = {
    fake,
    rest: fake.rest,
    adapter,
    runtime,
    state,
    observations: log.observations,
    async command() {
      const interaction = buildChatInputCommand({ name: 'ask' });
      fake.rest.knowInteraction(interaction);
      const response = await adapter.handler(signer.request(interaction));
      // Reading the answer hands it over (what a real HTTP server does when it writes it).
      await response.clone().text();
      return response;
    },
    message() {
      fake.gateway.dispatch('MESSAGE_CREATE', buildGatewayMessage({ content: 'question' }));
    },
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

type StreamFinished = Extract<Observation, { type: 'stream_finished' }>;
const finished = (o: Observation): o is StreamFinished => o.type === 'stream_finished';

describe('Discord streamed replies', () => {
  it('streams 10,000 chunks into @original and follow-ups of at most 2000 characters, within the rate', async () => {
    const { rest, runtime, command, observed } = await start({
      messageRate: { limit: 5, windowMs: 100 },
    });
    let startedAt = 0;
    runtime.onCommand('ask', async (ctx) => {
      startedAt = Date.now();
      await ctx.stream(manyChunks());
    });
    expect((await command()).status).toBe(200);
    const end = (await observed(finished)) as StreamFinished;
    const elapsed = Date.now() - startedAt;

    expect(end).toMatchObject({ status: 'completed', path: 'discord-edit', chars: 20_000 });
    const messages = rest.messages.all();
    expect(messages.map((m) => m.content).join('')).toBe(MANY);
    for (const message of messages) expect(message.content.length).toBeLessThanOrEqual(2000);
    expect(messages[0]?.id).toMatch(/^original-/);
    expect(messages).toHaveLength(10);
    const writes = rest.calls.filter((call) => call.path.startsWith('/webhooks/')).length;
    expect(writes).toBeLessThanOrEqual(elapsed / INTERVAL_MS + 2);
    expect(rest.messages.refused).toBe(0);
    expect(rest.messages.tooLong).toBe(0);
  });

  it('a 429 storm: the stream completes later, loses no text, and each refusal is waited out', async () => {
    const { rest, runtime, command, observed } = await start({
      messageRate: { limit: 2, windowMs: 600 },
    });
    const words = Array.from({ length: 30 }, (_, i) => `w${i} `);
    runtime.onCommand('ask', (ctx) =>
      ctx.stream(mockTextStream(words, { chunkDelayInMs: 20 }).textStream, { flushChars: 10 }),
    );
    await command();
    const end = (await observed(finished)) as StreamFinished;

    expect(end.status).toBe('completed');
    expect(rest.messages.all().map((m) => m.content)).toEqual([words.join('')]);
    expect(rest.messages.refused).toBeGreaterThan(0);
    const accepted = rest.messages.all().reduce((n, m) => n + m.edits + 1, 0);
    expect(rest.messages.refused).toBeLessThanOrEqual(accepted + 1);
  }, 30_000);

  it("with the default pacing, a long reply never meets Discord's channel limit (5 per 5 s)", async () => {
    const { rest, runtime, message, observed } = await start({
      messageRate: DISCORD_CHANNEL_MESSAGE_RATE,
      adapter: { stream: {} },
    });
    const words = Array.from({ length: 20 }, (_, i) => `word${i} `);
    runtime.onMessage((ctx) =>
      ctx.stream(mockTextStream(words, { chunkDelayInMs: 300 }).textStream, { flushChars: 1 }),
    );
    message();
    expect(await observed(finished)).toMatchObject({ status: 'completed' });
    expect(rest.messages.all().map((m) => m.content)).toEqual([words.join('')]);
    expect(rest.messages.all()[0]?.edits).toBeGreaterThanOrEqual(3);
    expect(rest.messages.refused).toBe(0);
  }, 20_000);

  it('streams the AI SDK mock model through ctx.stream into the interaction', async () => {
    const { rest, runtime, command, observed } = await start();
    runtime.onCommand('ask', (ctx) =>
      ctx.stream(mockTextStream(['Forty', '-two', '.'], { chunkDelayInMs: 100 }).textStream, {
        flushIntervalMs: 50,
      }),
    );
    await command();
    expect(await observed(finished)).toMatchObject({ status: 'completed' });
    expect(rest.messages.all().map((m) => m.content)).toEqual(['Forty-two.']);
    expect(rest.messages.all()[0]?.edits).toBeGreaterThan(0);
  });

  it('a gateway message: typing renewed while the model is silent, then a reply that grows', async () => {
    const { rest, runtime, message, observed } = await start();
    runtime.onMessage((ctx) =>
      ctx.stream(
        mockTextStream(['Hello', ' from', ' the', ' model'], { chunkDelayInMs: 120 }).textStream,
        { flushIntervalMs: 50 },
      ),
    );
    message();
    expect(await observed(finished)).toMatchObject({ status: 'completed' });
    expect(rest.messages.typing.length).toBeGreaterThanOrEqual(2);
    const [reply] = rest.messages.all();
    expect(reply).toMatchObject({
      content: 'Hello from the model',
      channel: DISCORD_TEST_IDS.channelId,
    });
    const created = rest.callsTo('POST /channels/:channel/messages')[0];
    expect(created?.body).toMatchObject({ message_reference: expect.any(Object) });
  });

  it('a source that never yields: typing renewed, then the detach timeout ends it with the marker', async () => {
    const returned = vi.fn(async () => ({ done: true as const, value: undefined }));
    const silent = {
      [Symbol.asyncIterator]: (): AsyncIterator<string> => ({
        next: () => new Promise(() => {}),
        return: returned,
      }),
    };
    const { rest, runtime, message, observed } = await start({ detachTimeoutMs: 450 });
    runtime.onMessage((ctx) => ctx.stream(silent));
    message();
    expect(await observed((o) => o.type === 'dispatch_finished')).toMatchObject({
      outcome: 'timed-out',
    });
    expect(returned).toHaveBeenCalledTimes(1);
    expect(rest.messages.typing.length).toBeGreaterThanOrEqual(3);
    expect(rest.messages.all().map((m) => m.content)).toEqual(['\n\n_(interrupted)_']);
    expect(h?.observations.find(finished)).toMatchObject({ status: 'interrupted' });
  });

  it('at shutdown a stream in flight gets the grace period, then ends with its marker', async () => {
    let first = true;
    const stalling = {
      [Symbol.asyncIterator]: (): AsyncIterator<string> => ({
        next: () => {
          if (!first) return new Promise(() => {});
          first = false;
          return Promise.resolve({ done: false, value: 'Working on it' });
        },
        return: async () => ({ done: true, value: undefined }),
      }),
    };
    const { rest, runtime, command, observed } = await start();
    runtime.onCommand('ask', (ctx) => ctx.stream(stalling, { flushIntervalMs: 50 }));
    await command();
    await vi.waitFor(() => expect(rest.messages.all()).toHaveLength(1));
    await runtime.shutdown({ graceMs: 200 });
    expect(await observed((o) => o.type === 'dispatch_finished')).toMatchObject({
      outcome: 'shutdown',
    });
    expect(rest.messages.all().map((m) => m.content)).toEqual(['Working on it\n\n_(interrupted)_']);
  });
});

describe('Discord stream options and rate-limit answers', () => {
  it('validates stream options by name', () => {
    expect(() => resolveDiscordStreamOptions({ editIntervalMs: -1 })).toThrow(/editIntervalMs/);
    expect(() => resolveDiscordStreamOptions({ typing: 1 as unknown as boolean })).toThrow(
      TypeError,
    );
  });

  it('reads the wait of a RateLimitError, also as the cause of a call error', () => {
    const limited = Object.assign(new Error('limited'), {
      name: 'RateLimitError',
      retryAfter: 7000,
    });
    expect(discordRetryAfterMs(limited)).toBe(7000);
    expect(discordRetryAfterMs(new Error('wrapped', { cause: limited }))).toBe(7000);
    expect(discordRetryAfterMs(new Error('nope'))).toBeUndefined();
  });
});
