import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deferred } from '@rt/testing';
import {
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscord,
  startFakeDiscord,
} from '@rt/testing/discord';
import { type FakeSlackApi, startFakeSlackApi } from '@rt/testing/slack';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bot, createBot } from './bot.js';
import { botListener } from './server.js';

const TOKEN = 'example-discord-token';

describe('one runtime, one State, two platforms', () => {
  let slackApi: FakeSlackApi;
  let fake: FakeDiscord;
  let bot: Bot;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    slackApi = await startFakeSlackApi({ tokens: ['xoxb-test'] });
    fake = await startFakeDiscord({ rest: { tokens: [TOKEN] }, gateway: { tokens: [TOKEN] } });
    bot = createBot({
      slack: { signingSecret: 'secret', botToken: 'xoxb-test', apiUrl: slackApi.url },
      discord: {
        publicKey: createDiscordSigner().publicKey,
        applicationId: DISCORD_TEST_IDS.applicationId,
        token: TOKEN,
        apiUrl: fake.rest.url,
      },
    });
    server = createServer(botListener(bot));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await bot.start();
  });

  afterEach(async () => {
    await bot.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await Promise.all([slackApi.close(), fake.close()]);
  });

  it('registers both adapters on the one runtime and routes each platform’s endpoint; other paths are 404', async () => {
    expect(bot.runtime.adapter('slack')).toBe(bot.slack);
    expect(bot.runtime.adapter('discord')).toBe(bot.discord);
    expect((await fetch(`${base}/elsewhere`, { method: 'POST' })).status).toBe(404);
    // Unsigned requests are refused by each adapter's own verification.
    expect((await fetch(`${base}/slack/events`, { method: 'POST', body: '{}' })).status).toBe(401);
    expect(
      (await fetch(`${base}/discord/interactions`, { method: 'POST', body: '{}' })).status,
    ).toBe(401);
  });

  it('shutdown drains a Discord handler in flight, refuses a late Discord message visibly, and closes the gateway with 1000', async () => {
    const release = deferred();
    const holding = deferred();
    bot.runtime.onMessage(async () => {
      holding.resolve();
      await release.promise;
    });
    fake.gateway.dispatch('MESSAGE_CREATE', buildGatewayMessage({ content: 'slow' }));
    await holding.promise;
    const closing = bot.close();
    const late = buildGatewayMessage({
      content: 'late',
      mentions: [DISCORD_TEST_IDS.applicationId],
    });
    fake.gateway.dispatch('MESSAGE_CREATE', late);
    const [refusal] = await fake.rest.waitForCalls('POST /channels/:channel/messages');
    expect(refusal?.body).toMatchObject({
      content: 'This app is temporarily unavailable. Please try again in a moment.',
      message_reference: { message_id: late.id },
    });
    release.resolve();
    await closing;
    expect(await fake.gateway.waitFor('close')).toEqual([
      { type: 'close', code: 1000, byClient: true },
    ]);
    expect(bot.runtime.stats().outcomes.completed).toBe(1);
  });
});
