/**
 * The bot end to end with no network: a fake Slack Web API, a fake Discord REST API and gateway
 * (the real discord.js Client connects to it), the bot's one HTTP server for both platforms, and
 * the same conversations on each platform: a mention (answered with a card), a click on the
 * card's "Not helpful" button, `/status`, and `/feedback` (a form, submitted once too short and
 * once right). The fakes validate every payload as the platforms do. Resolves with what the bot
 * sent to each platform. Used by `pnpm offline` and by the smoke tests.
 */
import type { AddressInfo } from 'node:net';
import type { Observer } from '@rt/core';
import {
  buildButton,
  buildChatInputCommand,
  buildGatewayMessage,
  buildModalSubmit,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscordCall,
  type FakeDiscordRejection,
  startFakeDiscord,
} from '@rt/testing/discord';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildSlashCommand,
  buildViewSubmission,
  createSlackSigner,
  type FakeSlackApiCall,
  type FakeSlackRejection,
  SLACK_TEST_IDS,
  type SlackTestPayload,
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
  /** The answers of the HTTP deliveries, by step name (`slack /feedback submit`...). */
  readonly answers: Readonly<Record<string, unknown>>;
  /** Payloads the fakes refused as the platforms would (none, when the bot renders right). */
  readonly rejected: {
    readonly slack: readonly FakeSlackRejection[];
    readonly discord: readonly FakeDiscordRejection[];
  };
}

async function answerOf(response: Response, step: string): Promise<unknown> {
  if (response.status !== 200) throw new Error(`${step} answered ${response.status}`);
  const text = await response.text();
  return text.length > 0 ? JSON.parse(text) : undefined;
}

/** Runs the conversations on both platforms, then shuts everything down. */
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
  const answers: Record<string, unknown> = {};
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await bot.start();
    const slack = async (step: string, payload: SlackTestPayload) => {
      const response = await fetch(`${base}${SLACK_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': payload.contentType,
          ...createSlackSigner(SLACK_SECRET).sign(payload.body),
        },
        body: payload.body,
      });
      answers[step] = await answerOf(response, step);
    };
    const discord = async (step: string, interaction: Parameters<typeof signer.request>[0]) => {
      fakeDiscord.rest.knowInteraction(interaction as { token: string });
      const response = await fetch(signer.request(interaction, { url: `${base}${DISCORD_PATH}` }));
      answers[step] = await answerOf(response, step);
    };

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

    // Slack over HTTP: a mention answered with a card, a click on it, /status, /feedback.
    await slack(
      'slack mention',
      buildAppMentionEvent({
        text: `<@${SLACK_TEST_IDS.botUserId}> hello from Slack`,
        ts: mentionTs,
        threadTs,
      }),
    );
    const [card] = await slackApi.waitForCalls('chat.postMessage', 1);
    await slack(
      'slack click',
      buildBlockActions({
        actionId: 'feedback|1', // the card's second feedback button, as Slack sends it
        value: 'no',
        channelId: String(card?.args.channel),
        messageTs: `${card?.args.thread_ts}`,
        responseUrl: slackApi.responseUrl(),
      }),
    );
    await slackApi.waitForCalls('response_url', 1);
    await slack('slack /status', buildSlashCommand({ command: '/status' }));
    await slackApi.waitForCalls('chat.postMessage', 2);
    await slack('slack /feedback', buildSlashCommand({ command: '/feedback' }));
    const [opened] = await slackApi.waitForCalls('views.open', 1);
    const view = opened?.args.view as { callback_id: string; blocks: Record<string, unknown>[] };
    const submit = (summary: string) =>
      buildViewSubmission({
        view: {
          callbackId: view.callback_id,
          blocks: view.blocks,
          stateValues: {
            summary: { summary: { type: 'plain_text_input', value: summary } },
            details: { details: { type: 'plain_text_input', value: null } },
            mood: { mood: { type: 'static_select', selected_option: { value: 'meh' } } },
          },
        },
      });
    await slack('slack /feedback too short', submit('no'));
    await slack('slack /feedback submit', submit('works well'));
    await slackApi.waitForCalls('chat.postMessage', 3);

    // Discord: a gateway mention answered with a card; over HTTP a click, /feedback and its form;
    // /status once over the gateway and once over HTTP.
    fakeDiscord.gateway.dispatch('MESSAGE_CREATE', mention);
    await fakeDiscord.rest.waitForCalls('POST /channels/:channel/messages', 1);
    // The card's second feedback button, as Discord sends it (the message is the builder's).
    await discord('discord click', buildButton({ customId: 'feedback|no' }));
    await fakeDiscord.rest.waitForCalls('POST /webhooks/:application/:token', 1);
    fakeDiscord.gateway.dispatch('INTERACTION_CREATE', buildChatInputCommand({ name: 'status' }));
    await discord('discord /status', buildChatInputCommand({ name: 'status' }));
    await discord('discord /feedback', buildChatInputCommand({ name: 'feedback' }));
    const modal = (fields: Record<string, string>) =>
      buildModalSubmit({
        customId: 'feedback-form',
        labels: true,
        fields,
        selects: { mood: ['meh'] },
      });
    await discord('discord /feedback too short', modal({ summary: 'no', details: '' }));
    await fakeDiscord.rest.waitForCalls('POST /webhooks/:application/:token', 2);
    await discord('discord /feedback submit', modal({ summary: 'works well', details: '' }));
    await fakeDiscord.rest.waitForCalls('POST /channels/:channel/messages', 2);
    await fakeDiscord.rest.waitForCalls('PATCH /webhooks/:application/:token/messages/:message', 2);
    return {
      slack: [...slackApi.calls],
      discord: [...fakeDiscord.rest.calls],
      answers,
      rejected: { slack: [...slackApi.rejections], discord: [...fakeDiscord.rest.rejections] },
    };
  } finally {
    await bot.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await Promise.all([slackApi.close(), fakeDiscord.close()]);
  }
}
