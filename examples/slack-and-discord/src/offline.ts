/**
 * The bot end to end with no network: a fake Slack Web API, a fake Discord REST API and gateway
 * (the real discord.js Client connects to it), the bot's one HTTP server for both platforms, and
 * the same two conversations on each platform (a mention, then `/status`). Resolves with what the
 * bot sent to each platform. Used by `pnpm offline` and by the smoke tests.
 */
import type { AddressInfo } from 'node:net';
import type { Observer } from '@rt/core';
import {
  buildChatInputCommand,
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscordCall,
  startFakeDiscord,
} from '@rt/testing/discord';
import {
  buildAppMentionEvent,
  buildSlashCommand,
  type FakeSlackApiCall,
  SLACK_TEST_IDS,
  signSlackRequest,
  startFakeSlackApi,
} from '@rt/testing/slack';
import { createBot } from './bot.js';
import { createBotServer, DISCORD_PATH, SLACK_PATH } from './server.js';

const SLACK_SECRET = 'offline-signing-secret';
const SLACK_TOKEN = 'xoxb-offline';
const DISCORD_TOKEN = 'offline-discord-token';

/** What the bot sent to each platform during the run. */
export interface OfflineTranscript {
  /** Slack Web API calls (`chat.postMessage` ...). */
  readonly slack: readonly FakeSlackApiCall[];
  /** Discord REST calls (replies, interaction callbacks, `@original` edits ...). */
  readonly discord: readonly FakeDiscordCall[];
}

/** Runs both conversations on both platforms, then shuts everything down. */
export async function runOffline(observers: readonly Observer[] = []): Promise<OfflineTranscript> {
  const slackApi = await startFakeSlackApi({ tokens: [SLACK_TOKEN] });
  const fakeDiscord = await startFakeDiscord({
    rest: { tokens: [DISCORD_TOKEN] },
    gateway: { tokens: [DISCORD_TOKEN] },
  });
  const signer = createDiscordSigner();
  const bot = createBot({
    slack: { signingSecret: SLACK_SECRET, botToken: SLACK_TOKEN, apiUrl: slackApi.url },
    discord: {
      publicKey: signer.publicKey,
      applicationId: DISCORD_TEST_IDS.applicationId,
      token: DISCORD_TOKEN,
      apiUrl: fakeDiscord.rest.url,
    },
    observers,
  });
  const server = createBotServer(bot);
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await bot.start();

    // Some earlier conversation on each platform, for the History Reader to find.
    const threadTs = '1700000000.000100';
    const mentionTs = '1700000002.000100';
    slackApi.seedReplies(SLACK_TEST_IDS.channelId, threadTs, [
      { type: 'message', user: 'U0ALICE', text: 'is the bot up?', ts: threadTs },
      { type: 'message', user: 'U0ALICE', text: 'hello from Slack', ts: mentionTs },
    ]);
    const mention = buildGatewayMessage({
      content: 'hello from Discord',
      mentions: [DISCORD_TEST_IDS.applicationId],
    });
    fakeDiscord.rest.seedMessages(DISCORD_TEST_IDS.channelId, [
      {
        id: '1',
        content: 'is the bot up?',
        author: { id: DISCORD_TEST_IDS.userId },
        timestamp: new Date(0).toISOString(),
      },
      { ...mention },
    ]);

    // Slack over HTTP: a mention, then /status.
    for (const payload of [
      buildAppMentionEvent({
        text: `<@${SLACK_TEST_IDS.botUserId}> hello from Slack`,
        ts: mentionTs,
        threadTs,
      }),
      buildSlashCommand({ command: '/status' }),
    ]) {
      const response = await fetch(`${base}${SLACK_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': payload.contentType,
          ...signSlackRequest({ secret: SLACK_SECRET, body: payload.body }),
        },
        body: payload.body,
      });
      if (response.status !== 200) throw new Error(`Slack answered ${response.status}`);
    }
    await slackApi.waitForCalls('chat.postMessage', 2);

    // Discord over the gateway: a mention; then /status, once over the gateway and once over HTTP.
    fakeDiscord.gateway.dispatch('MESSAGE_CREATE', mention);
    fakeDiscord.gateway.dispatch('INTERACTION_CREATE', buildChatInputCommand({ name: 'status' }));
    const overHttp = buildChatInputCommand({ name: 'status' });
    fakeDiscord.rest.knowInteraction(overHttp);
    const answer = await fetch(signer.request(overHttp, { url: `${base}${DISCORD_PATH}` }));
    if (answer.status !== 200) throw new Error(`Discord interaction answered ${answer.status}`);
    await fakeDiscord.rest.waitForCalls('POST /channels/:channel/messages', 1);
    await fakeDiscord.rest.waitForCalls('PATCH /webhooks/:application/:token/messages/:message', 2);
    return { slack: [...slackApi.calls], discord: [...fakeDiscord.rest.calls] };
  } finally {
    await bot.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await Promise.all([slackApi.close(), fakeDiscord.close()]);
  }
}
