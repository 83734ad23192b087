/**
 * The assistant end to end with no network and no API key: a fake Slack Web API, a fake Discord
 * REST API and gateway (the real discord.js Client connects to it), the bot's one HTTP server, and
 * the AI SDK's mock model. On Slack: a mention, answered with a streamed reply in its thread (which
 * the bot now follows), then two messages sent while that reply is still streaming: the second
 * supersedes the first and its run answers both (`ctx.skipped`). On Discord: a gateway mention,
 * answered with a streamed reply; then a mention in a thread channel, and a message there without a
 * mention, answered with the thread's summary as context. Resolves with each platform's final message texts and what the
 * model answered. Used by `pnpm offline` and by the tests.
 */
import type { AddressInfo } from 'node:net';
import type { Observation } from '@rt/core';
import { deferred, observationLog } from '@rt/testing';
import {
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  startFakeDiscord,
} from '@rt/testing/discord';
import {
  buildAppMentionEvent,
  buildMessageEvent,
  createSlackSigner,
  SLACK_TEST_IDS,
  type SlackTestPayload,
  startFakeSlackApi,
} from '@rt/testing/slack';
import { createBot } from './bot.js';
import { createMockModel } from './model.js';
import { createBotServer, SLACK_PATH } from './server.js';

const SLACK_SECRET = 'offline-signing-secret';
const SLACK_TOKEN = 'xoxb-offline';
const DISCORD_TOKEN = 'offline-discord-token';

/** What `runOffline` needs. */
export interface OfflineOptions {
  /** Ms between two streamed words of the mock model. Default 20. */
  readonly chunkDelayMs?: number;
}

/** One bot message as the platform shows it at the end of the run. */
export interface OfflineMessage {
  readonly id: string;
  /** Slack: the thread it was posted in (`thread_ts`). */
  readonly thread?: string;
  readonly text: string;
}

/** What the run produced. */
export interface OfflineTranscript {
  /** Slack's bot messages (their final text), in posting order. */
  readonly slack: readonly OfflineMessage[];
  /** Discord's bot messages (their final content), in posting order. */
  readonly discord: readonly OfflineMessage[];
  /** The mock model's answers, in the order it was called: Slack's two, then Discord's three. */
  readonly answers: readonly string[];
  /** The system prompt of each model call (the thread's running summary once there is one). */
  readonly systems: readonly string[];
  /** The texts of the events the Slack follow-up run found in `ctx.skipped`. */
  readonly skipped: readonly string[];
  /** Every `stream_finished` and `dispatch_finished` observation of the run. */
  readonly observations: readonly Observation[];
}

/** Runs the conversations on both platforms, then shuts everything down. */
export async function runOffline(options: OfflineOptions = {}): Promise<OfflineTranscript> {
  const slackApi = await startFakeSlackApi({ tokens: [SLACK_TOKEN] });
  const fakeDiscord = await startFakeDiscord({
    rest: { tokens: [DISCORD_TOKEN] },
    gateway: { tokens: [DISCORD_TOKEN] },
  });
  // The first answer stays open (its text shown, the model not finished) until the two messages
  // sent meanwhile were queued: one superseded by the other.
  const queued = deferred();
  const model = createMockModel({
    ...(options.chunkDelayMs !== undefined ? { chunkDelayMs: options.chunkDelayMs } : {}),
    holdFinish: (index) => (index === 0 ? queued.promise : undefined),
  });
  const log = observationLog();
  const skipped: string[] = [];
  const bot = createBot({
    slack: { signingSecret: SLACK_SECRET, botToken: SLACK_TOKEN, apiUrl: slackApi.url },
    discord: {
      publicKey: createDiscordSigner().publicKey,
      applicationId: DISCORD_TEST_IDS.applicationId,
      token: DISCORD_TOKEN,
      apiUrl: fakeDiscord.rest.url,
    },
    model: model.model,
    observers: [log.observer],
  });
  // Sees what the follow-up run skipped (registered after the bot's own handlers).
  bot.runtime.onSubscribedMessage((ctx) => {
    skipped.push(...ctx.skipped.map((event) => event.text ?? ''));
  });
  const server = createBotServer(bot);
  // Deliveries finished: Slack's mention, the superseded message, its successor, then Discord's.
  const finished = (count: number) =>
    log.until(() => log.observations.filter((o) => o.type === 'dispatch_finished').length >= count);
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await bot.start();
    const slack = async (payload: SlackTestPayload) => {
      const response = await fetch(`${base}${SLACK_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': payload.contentType,
          ...createSlackSigner(SLACK_SECRET).sign(payload.body),
        },
        body: payload.body,
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`Slack delivery answered ${response.status}`);
    };

    // Slack: a mention; its answer streams in the mention's thread, which the bot now follows.
    const mentionTs = '1700000001.000100';
    await slack(
      buildAppMentionEvent({
        text: `<@${SLACK_TEST_IDS.botUserId}> what is a thread lock?`,
        ts: mentionTs,
      }),
    );
    await model.called(0); // the handler subscribed and is streaming
    // Two messages while it streams: the first waits, the second supersedes it.
    await slack(buildMessageEvent({ text: 'and a fence?', threadTs: mentionTs }));
    await slack(buildMessageEvent({ text: 'answer both, please', threadTs: mentionTs }));
    await log.observed((o) => o.type === 'superseded');
    queued.resolve();
    await finished(3);

    // Discord: a gateway mention, answered with a streamed reply to it.
    fakeDiscord.gateway.dispatch(
      'MESSAGE_CREATE',
      buildGatewayMessage({
        content: 'hello from Discord',
        mentions: [DISCORD_TEST_IDS.applicationId],
      }),
    );
    await finished(4);
    // Discord: a mention in a thread channel subscribes it; a later message there, without a
    // mention, is answered with the thread's summary as context.
    fakeDiscord.gateway.dispatch(
      'MESSAGE_CREATE',
      buildGatewayMessage({
        where: 'thread',
        content: 'follow this thread',
        mentions: [DISCORD_TEST_IDS.applicationId],
      }),
    );
    await finished(5);
    fakeDiscord.gateway.dispatch(
      'MESSAGE_CREATE',
      buildGatewayMessage({ where: 'thread', content: 'still there?' }),
    );
    await finished(6);
    return {
      slack: slackApi.messages
        .all()
        .map((m) => ({ id: m.ts, text: m.text, ...(m.threadTs ? { thread: m.threadTs } : {}) })),
      discord: fakeDiscord.rest.messages.all().map((m) => ({ id: m.id, text: m.content })),
      answers: [...model.answers],
      systems: [...model.systems],
      skipped,
      observations: log.observations.filter(
        (o) => o.type === 'stream_finished' || o.type === 'dispatch_finished',
      ),
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
