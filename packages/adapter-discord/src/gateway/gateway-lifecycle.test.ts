import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { deferred } from '@rt/testing';
import {
  buildChatInputCommand,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscord,
  startFakeDiscord,
} from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../discord-adapter.js';
import {
  GATEWAY_BOT_TOKEN,
  type GatewayHarness,
  startGatewayHarness,
} from '../test-support/gateway-harness.js';

/** Real connections under a loaded machine: poll for up to 5 s (an upper bound, not a timing). */
const POLL = { timeout: 5000 };

const CALLBACK = 'POST /interactions/:interaction/:token/callback' as const;

function adapterFor(fake: FakeDiscord, token: string, gateway: boolean | object = true) {
  return createDiscordAdapter({
    publicKey: createDiscordSigner().publicKey,
    applicationId: DISCORD_TEST_IDS.applicationId,
    token,
    apiUrl: fake.rest.url,
    gateway: gateway as never,
  });
}

describe('gateway lifecycle', () => {
  let fake: FakeDiscord | undefined;
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    await fake?.close();
    h = undefined;
    fake = undefined;
  });

  it('runtime.start() rejects with DiscordGatewayError when the token is refused, and leaves no client running', async () => {
    fake = await startFakeDiscord({ rest: { tokens: [GATEWAY_BOT_TOKEN] } });
    const adapter = adapterFor(fake, 'not-the-token');
    const runtime = createRuntime({ state: createMemoryState(), adapters: [adapter] });
    await expect(runtime.start()).rejects.toMatchObject({ code: 'RT_DISCORD_GATEWAY' });
    expect(fake.gateway.events).toEqual([]);
    await runtime.shutdown({ graceMs: 0 });
  });

  it('a shutdown while the gateway is still connecting makes start() reject with the shutdown reason and destroys the client', async () => {
    fake = await startFakeDiscord({ gateway: { tokens: [GATEWAY_BOT_TOKEN] } });
    fake.gateway.goDown();
    const adapter = adapterFor(fake, GATEWAY_BOT_TOKEN);
    const runtime = createRuntime({ state: createMemoryState(), adapters: [adapter] });
    const starting = runtime.start().then(
      () => 'started',
      (error: unknown) => error,
    );
    await fake.rest.waitForCalls('GET /gateway/bot');
    await runtime.shutdown({ graceMs: 0 });
    expect(await starting).toMatchObject({ code: 'RT_SHUTDOWN' });
    expect(adapter.gatewayClient).toBeUndefined();
  });

  it('an HTTP-only adapter starts without a gateway and never connects', async () => {
    fake = await startFakeDiscord();
    const adapter = adapterFor(fake, GATEWAY_BOT_TOKEN, false);
    const runtime = createRuntime({ state: createMemoryState(), adapters: [adapter] });
    await runtime.start();
    expect(adapter.gatewayClient).toBeUndefined();
    expect(fake.rest.calls).toEqual([]);
    await runtime.shutdown({ graceMs: 0 });
  });

  it('a gateway command during shutdown gets the ephemeral unavailable reply, undispatched', async () => {
    let handled = 0;
    const release = deferred();
    const holding = deferred();
    h = await startGatewayHarness({
      setup: (runtime) => {
        runtime.onCommand('ask', () => {
          handled += 1;
        });
        runtime.onMessage(async () => {
          holding.resolve();
          await release.promise;
        });
      },
    });
    h.message({ content: 'keeps the shutdown open' });
    await holding.promise;
    const shutdown = h.runtime.shutdown({ graceMs: 10_000 });
    const command = buildChatInputCommand({ name: 'ask' });
    h.fake.gateway.dispatch('INTERACTION_CREATE', command);
    const [callback] = await h.fake.rest.waitForCalls(CALLBACK);
    expect(callback).toMatchObject({
      params: { interaction: command.id },
      body: {
        type: 4,
        data: {
          content: 'This app is temporarily unavailable. Please try again in a moment.',
          flags: 64,
        },
      },
    });
    release.resolve();
    await shutdown;
    expect(handled).toBe(0);
  });

  it('with interactions: false, INTERACTION_CREATE is left alone', async () => {
    h = await startGatewayHarness({
      gateway: { interactions: false, rawDispatches: ['TYPING_START'] },
      setup: (runtime) => void runtime.onEvent('TYPING_START', () => undefined),
    });
    h.fake.gateway.dispatch('INTERACTION_CREATE', buildChatInputCommand({ name: 'ask' }));
    h.fake.gateway.dispatch('TYPING_START', {
      channel_id: DISCORD_TEST_IDS.channelId,
      user_id: DISCORD_TEST_IDS.userId,
      timestamp: 1,
    });
    await expect.poll(() => h?.runtime.stats().received, POLL).toBe(1);
    expect(h.fake.rest.callsTo(CALLBACK)).toEqual([]);
  });
});
