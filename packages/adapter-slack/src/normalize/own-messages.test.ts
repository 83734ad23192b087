import { fakeRuntimeHandle } from '@rt/testing/adapter';
import {
  buildEventCallback,
  buildMessageEvent,
  createSlackSigner,
  jsonPayload,
  SLACK_TEST_IDS,
  type SlackTestPayload,
} from '@rt/testing/slack';
import { describe, expect, it } from 'vitest';
import type { SlackAdapterOptions } from '../options.js';
import { createSlackAdapter } from '../slack-adapter.js';
import { SECRET } from '../test-support/harness.js';

/** Whether the adapter dispatched `payload` (and answered it 200 either way). */
async function dispatched(
  payload: SlackTestPayload,
  options: Partial<SlackAdapterOptions> = {},
): Promise<boolean> {
  const adapter = createSlackAdapter({ signingSecret: SECRET, botToken: 'x', ...options });
  const runtime = fakeRuntimeHandle();
  adapter.attach(runtime);
  const response = await adapter.handler(createSlackSigner(SECRET).request(payload));
  expect(response.status).toBe(200);
  return runtime.dispatched.length > 0;
}

const { apiAppId, botUserId, userId } = SLACK_TEST_IDS;
const noIgnoredSubtypes = { ignoredMessageSubtypes: [] };

function changed(message: Record<string, unknown>, previous: Record<string, unknown>) {
  return buildEventCallback({
    type: 'message',
    subtype: 'message_changed',
    channel: 'C1',
    hidden: true,
    ts: '1700000001.000200',
    message: { type: 'message', text: 'after', ts: '1700000000.000100', ...message },
    previous_message: { type: 'message', text: 'before', ts: '1700000000.000100', ...previous },
  });
}

function deleted(previous: Record<string, unknown>) {
  return buildEventCallback({
    type: 'message',
    subtype: 'message_deleted',
    channel: 'C1',
    hidden: true,
    ts: '1700000002.000300',
    deleted_ts: '1700000000.000100',
    previous_message: { type: 'message', text: 'gone', ts: '1700000000.000100', ...previous },
  });
}

describe("the bot's own edits and deletions, with no ignored subtypes", () => {
  it('are not dispatched when the edited message is the bot user’s', async () => {
    expect(
      await dispatched(changed({ user: botUserId }, { user: botUserId }), noIgnoredSubtypes),
    ).toBe(false);
  });

  it('are not dispatched when the edited message carries our app id in its bot profile', async () => {
    const bot = { bot_id: 'B0SOME', bot_profile: { app_id: apiAppId } };
    expect(await dispatched(changed(bot, bot), noIgnoredSubtypes)).toBe(false);
  });

  it('are not dispatched when the deleted message was ours (by bot_id option or app_id)', async () => {
    expect(
      await dispatched(deleted({ bot_id: 'B0MINE' }), { ...noIgnoredSubtypes, botId: 'B0MINE' }),
    ).toBe(false);
    expect(
      await dispatched(deleted({ bot_id: 'B0SOME', app_id: apiAppId }), noIgnoredSubtypes),
    ).toBe(false);
  });

  it('are still dispatched for a user’s own edits and deletions', async () => {
    expect(await dispatched(changed({ user: userId }, { user: userId }), noIgnoredSubtypes)).toBe(
      true,
    );
    expect(await dispatched(deleted({ user: userId }), noIgnoredSubtypes)).toBe(true);
  });
});

describe('own messages known from the payload alone', () => {
  it('are not dispatched when bot_profile.app_id is the envelope’s api_app_id', async () => {
    const payload = buildEventCallback({
      type: 'message',
      channel: 'C1',
      text: 'from our bot',
      ts: '1700000003.000100',
      bot_id: 'B0UNKNOWN',
      bot_profile: { id: 'B0UNKNOWN', app_id: apiAppId, name: 'our bot' },
    });
    expect(await dispatched(payload)).toBe(false);
  });

  it('are not dispatched when app_id is the envelope’s api_app_id, even without a bot_id', async () => {
    const payload = buildEventCallback({
      type: 'message',
      channel: 'C1',
      text: 'from our app',
      ts: '1700000004.000100',
      app_id: apiAppId,
    });
    expect(await dispatched(payload)).toBe(false);
  });

  it('are dispatched when the bot profile belongs to another app', async () => {
    const payload = buildEventCallback({
      type: 'message',
      channel: 'C1',
      text: 'from another bot',
      ts: '1700000005.000100',
      bot_id: 'B0OTHER',
      bot_profile: { id: 'B0OTHER', app_id: 'A0OTHER' },
    });
    expect(await dispatched(payload)).toBe(true);
  });

  it('finds the bot user in any authorization, not only the first', async () => {
    const base = buildMessageEvent({ user: 'U0BOT2' }).data;
    const payload = jsonPayload({
      ...base,
      authorizations: [
        { team_id: 'T0TEAM', user_id: 'U0HUMAN', is_bot: false, is_enterprise_install: false },
        { team_id: 'T0TEAM', user_id: 'U0BOT2', is_bot: true, is_enterprise_install: false },
      ],
    });
    expect(await dispatched(payload)).toBe(false);
    const human = jsonPayload({
      ...buildMessageEvent({ user: 'U0HUMAN' }).data,
      authorizations: payload.data.authorizations,
    });
    expect(await dispatched(human)).toBe(true);
  });
});
