import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '@rt/core';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildSlashCommand,
  createSlackSigner,
  type FakeSlackApi,
  SLACK_TEST_IDS,
  type SlackTestPayload,
  startFakeSlackApi,
} from '@rt/testing/slack';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bot, createBot } from './bot.js';
import { THANKS_ACTION_ID } from './handlers/mention.js';

const SECRET = 'example-signing-secret';
const TOKEN = 'xoxb-example';

describe('the example Slack bot over real HTTP against a fake Slack', () => {
  let fake: FakeSlackApi;
  let bot: Bot;
  let server: Server;
  let url: string;

  beforeEach(async () => {
    fake = await startFakeSlackApi({ tokens: [TOKEN] });
    bot = createBot({ signingSecret: SECRET, botToken: TOKEN, apiUrl: fake.url });
    server = createServer(toNodeListener(bot.handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });

  afterEach(async () => {
    await bot.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await fake.close();
  });

  function post(payload: SlackTestPayload, secret = SECRET): Promise<Response> {
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': payload.contentType,
        ...createSlackSigner(secret).sign(payload.body),
      },
      body: payload.body,
    });
  }

  it('replies to a mention in its thread, counting the thread history it read from Slack', async () => {
    const channel = SLACK_TEST_IDS.channelId;
    const threadTs = '1700000000.000100';
    const mentionTs = '1700000002.000100';
    fake.seedReplies(channel, threadTs, [
      { type: 'message', user: 'U0ALICE', text: 'deploy is red', ts: threadTs },
      { type: 'message', bot_id: 'B0OTHER', text: 'build #12 failed', ts: '1700000001.000100' },
      { type: 'message', user: 'U0ALICE', text: '<@U0BOT> help?', ts: mentionTs },
    ]);

    const response = await post(
      buildAppMentionEvent({ channel, user: 'U0ALICE', ts: mentionTs, threadTs }),
    );
    expect(response.status).toBe(200);

    const [posted] = await fake.waitForCalls('chat.postMessage');
    expect(posted?.token).toBe(TOKEN);
    expect(posted?.args).toMatchObject({
      channel,
      thread_ts: threadTs,
      text: 'Hi <@U0ALICE>! This thread has 2 earlier message(s), 1 from people.',
    });
    const blocks = posted?.args.blocks as { type: string; elements?: { action_id: string }[] }[];
    expect(blocks.find((block) => block.type === 'actions')?.elements?.[0]?.action_id).toBe(
      THANKS_ACTION_ID,
    );
    expect(fake.callsTo('conversations.replies')[0]?.args).toMatchObject({ channel, ts: threadTs });
    expect(fake.callsTo('reactions.add')[0]?.args).toMatchObject({
      channel,
      timestamp: mentionTs,
      name: 'eyes',
    });
  });

  it('still replies in the thread when Slack refuses to return the history', async () => {
    fake.fail('conversations.replies', { error: 'missing_scope' });
    const response = await post(buildAppMentionEvent({ ts: '1700000010.000100' }));
    expect(response.status).toBe(200);

    const [posted] = await fake.waitForCalls('chat.postMessage');
    expect(posted?.args).toMatchObject({
      thread_ts: '1700000010.000100',
      text: `Hi <@${SLACK_TEST_IDS.userId}>! I could not read this thread's history.`,
    });
  });

  it('acknowledges /rt-status at once and answers through response_url with the runtime stats', async () => {
    const responseUrl = fake.responseUrl();
    const response = await post(buildSlashCommand({ command: '/rt-status', responseUrl }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');

    const [answer] = await fake.waitForCalls('response_url');
    expect(answer?.path).toBe(new URL(responseUrl).pathname);
    const text = String(answer?.args.text);
    expect(text).toContain('*rt status*');
    expect(text).toContain('received: 1, accepted: 1');
    expect(text).toContain('shutting down: no');
    expect(answer?.args.response_type).toBe('ephemeral');
  });

  it('handles the Thanks button with an ephemeral answer to the clicking user', async () => {
    const responseUrl = fake.responseUrl();
    const response = await post(
      buildBlockActions({ actionId: THANKS_ACTION_ID, userId: 'U0BOB', responseUrl }),
    );
    expect(response.status).toBe(200);

    const [answer] = await fake.waitForCalls('response_url');
    expect(answer?.args).toMatchObject({
      text: "You're welcome, <@U0BOB>!",
      response_type: 'ephemeral',
    });
  });

  it('refuses a badly signed delivery with 401 and dispatches nothing', async () => {
    const response = await post(buildAppMentionEvent(), 'not-the-secret');
    expect(response.status).toBe(401);
    expect(bot.runtime.stats().received).toBe(0);
  });

  it('drains running handlers on close, after which deliveries are refused for a retry', async () => {
    fake.delay('chat.postMessage', 200);
    expect((await post(buildAppMentionEvent())).status).toBe(200);
    await fake.waitForCalls('chat.postMessage');

    await bot.close();
    const stats = bot.runtime.stats();
    expect(stats.shuttingDown).toBe(true);
    expect(stats.detachedInFlight).toBe(0);
    expect(stats.outcomes.completed).toBe(1);

    const late = await post(buildAppMentionEvent());
    expect(late.status).toBe(503);
  });
});
