import {
  buildGatewayMessage,
  buildGatewayReaction,
  DISCORD_TEST_IDS,
  FAKE_GATEWAY_THREAD_ID,
} from '@rt/testing/discord';
import type { GatewayMessageCreateDispatchData } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import type { BotMessagePolicy } from '../gateway/gateway-options.js';
import { messageTargetOf } from './message-target.js';
import {
  type GatewayReaction,
  normalizeGatewayDispatch,
  normalizeGatewayReaction,
} from './normalize-gateway-dispatch.js';
import {
  type GatewayNormalizeContext,
  normalizeGatewayMessage,
} from './normalize-gateway-message.js';

const BOT = DISCORD_TEST_IDS.applicationId;

function context(overrides: Partial<GatewayNormalizeContext> = {}): GatewayNormalizeContext {
  return {
    adapter: 'discord',
    receivedAt: 1234,
    applicationId: BOT,
    botUserId: BOT,
    botMessages: 'ignore',
    channelInfo: (id) =>
      id === FAKE_GATEWAY_THREAD_ID
        ? { thread: true, parentId: DISCORD_TEST_IDS.channelId }
        : id === DISCORD_TEST_IDS.channelId
          ? { thread: false }
          : undefined,
    ...overrides,
  };
}

function message(options: Parameters<typeof buildGatewayMessage>[0]) {
  return buildGatewayMessage(options) as unknown as GatewayMessageCreateDispatchData;
}

function normalized(payload: GatewayMessageCreateDispatchData, ctx = context()) {
  const result = normalizeGatewayMessage(payload, ctx);
  if (result.type !== 'event') throw new Error(`ignored: ${result.reason}`);
  return result.event;
}

describe('normalizeGatewayMessage', () => {
  it('a guild message mentioning the bot is a mention in the guild’s tenant, identified by the message id, payload untouched', () => {
    const payload = message({ content: 'hello', mentions: [BOT] });
    expect(normalized(payload)).toEqual({
      adapter: 'discord',
      tenant: DISCORD_TEST_IDS.guildId,
      id: payload.id,
      kind: 'mention',
      shape: 'message_create',
      type: 'MESSAGE_CREATE',
      channel: DISCORD_TEST_IDS.channelId,
      user: DISCORD_TEST_IDS.userId,
      text: `<@${BOT}> hello`,
      receivedAt: 1234,
      payload,
    });
  });

  it('a <@!id> nickname mention in the text counts as a mention even when mentions is empty', () => {
    const payload = { ...message({}), content: `<@!${BOT}> hi`, mentions: [] };
    expect(normalized(payload).kind).toBe('mention');
  });

  it('a mention of the bot’s managed role is a mention too', () => {
    const payload = { ...message({}), mention_roles: ['777'] };
    expect(normalized(payload).kind).toBe('message');
    expect(normalized(payload, context({ botRoleId: () => '777' })).kind).toBe('mention');
  });

  it('a DM is a message in the dm:<application> tenant, its channel the DM channel', () => {
    const event = normalized(message({ where: 'dm', content: 'psst' }));
    expect(event).toMatchObject({ kind: 'message', tenant: `dm:${BOT}`, text: 'psst' });
    expect(event.thread).toBeUndefined();
  });

  it('a DM is direct, a guild message is not; a DM mention falls back to message', () => {
    expect(normalized(message({ where: 'dm' }))).toMatchObject({ kind: 'message', direct: true });
    expect(normalized(message({ where: 'dm' }))).not.toHaveProperty('fallbackKind');
    expect(normalized(message({ where: 'dm', mentions: [BOT] }))).toMatchObject({
      kind: 'mention',
      fallbackKind: 'message',
      direct: true,
    });
    for (const guild of [message({}), message({ mentions: [BOT] }), message({ where: 'thread' })]) {
      const event = normalized(guild);
      expect(event).not.toHaveProperty('direct');
      expect(event).not.toHaveProperty('fallbackKind');
    }
  });

  it('a message in a cached thread has thread = the thread and channel = its parent (docs/contract.md §9.2)', () => {
    expect(normalized(message({ where: 'thread' }))).toMatchObject({
      thread: FAKE_GATEWAY_THREAD_ID,
      channel: DISCORD_TEST_IDS.channelId,
    });
  });

  it('a message in an uncached thread (channel_type 11) still gets its thread, without a parent', () => {
    const event = normalized(
      message({ where: 'thread', channelId: '999000000000000999' }),
      context({ channelInfo: () => undefined }),
    );
    expect(event.thread).toBe('999000000000000999');
    expect(event.channel).toBeUndefined();
  });

  it.each<[string, BotMessagePolicy, boolean, boolean]>([
    ['ignore', 'ignore', false, false],
    ['others', 'others', false, true],
    ['all', 'all', true, true],
  ])('botMessages %s: own dispatched %s, other bots dispatched %s', (_n, policy, own, others) => {
    const ctx = context({ botMessages: policy });
    const mine = normalizeGatewayMessage(message({ authorId: BOT, bot: true }), ctx);
    const theirs = normalizeGatewayMessage(message({ authorId: '5', bot: true }), ctx);
    const hook = normalizeGatewayMessage({ ...message({}), webhook_id: '6' }, ctx);
    expect(mine.type === 'event').toBe(own);
    expect(theirs.type === 'event').toBe(others);
    expect(hook.type === 'event').toBe(others);
  });

  it('system messages (a pin, a thread created) and payloads without id are ignored with a reason', () => {
    expect(normalizeGatewayMessage({ ...message({}), type: 6 }, context())).toEqual({
      type: 'ignore',
      reason: 'message type 6',
    });
    const broken = { channel_id: '1' } as unknown as GatewayMessageCreateDispatchData;
    expect(normalizeGatewayMessage(broken, context()).type).toBe('ignore');
  });

  it('the message target of a message is itself in its own channel (a thread is a channel)', () => {
    const payload = message({ where: 'thread' });
    expect(messageTargetOf(normalized(payload))).toEqual({
      channel: FAKE_GATEWAY_THREAD_ID,
      messageId: payload.id,
    });
  });
});

describe('normalizeGatewayReaction and normalizeGatewayDispatch', () => {
  it('a reaction is a reaction named by its emoji, its identity message:user:emoji:add, its target the reacted message', () => {
    const payload = buildGatewayReaction({ emoji: '🎉' }) as unknown as GatewayReaction;
    const result = normalizeGatewayReaction('MESSAGE_REACTION_ADD', payload, context());
    if (result.type !== 'event') throw new Error(result.reason);
    expect(result.event).toMatchObject({
      id: `${payload.message_id}:${payload.user_id}:🎉:add`,
      kind: 'reaction',
      shape: 'message_reaction_add',
      type: 'MESSAGE_REACTION_ADD',
      text: '🎉',
      tenant: DISCORD_TEST_IDS.guildId,
      channel: DISCORD_TEST_IDS.channelId,
    });
    expect(messageTargetOf(result.event)).toEqual({
      channel: DISCORD_TEST_IDS.channelId,
      messageId: payload.message_id,
    });
  });

  it('removing a custom emoji has its own identity, keyed by the emoji id', () => {
    const payload = buildGatewayReaction({ emoji: 'party', emojiId: '77' }) as GatewayReaction;
    const result = normalizeGatewayReaction('MESSAGE_REACTION_REMOVE', payload, context());
    expect(result.type === 'event' && result.event.id).toBe(
      `${payload.message_id}:${payload.user_id}:77:remove`,
    );
  });

  it('the bot’s own reaction is ignored unless botMessages is all', () => {
    const own = buildGatewayReaction({ userId: BOT }) as unknown as GatewayReaction;
    expect(normalizeGatewayReaction('MESSAGE_REACTION_ADD', own, context()).type).toBe('ignore');
    expect(
      normalizeGatewayReaction('MESSAGE_REACTION_ADD', own, context({ botMessages: 'all' })).type,
    ).toBe('event');
  });

  it('a raw dispatch without an id gets a stable digest identity, so a replay dedupes', () => {
    const d = { guild_id: DISCORD_TEST_IDS.guildId, user: { id: '42' }, joined_at: 'x' };
    const a = normalizeGatewayDispatch('GUILD_MEMBER_ADD', d, context());
    const b = normalizeGatewayDispatch('GUILD_MEMBER_ADD', { ...d }, context());
    const other = normalizeGatewayDispatch('GUILD_MEMBER_ADD', { ...d, joined_at: 'y' }, context());
    if (a.type !== 'event' || b.type !== 'event' || other.type !== 'event') throw new Error();
    expect(a.event).toMatchObject({ kind: 'raw', type: 'GUILD_MEMBER_ADD', user: '42' });
    expect(a.event.id).toBe(b.event.id);
    expect(a.event.id).not.toBe(other.event.id);
    expect(messageTargetOf(a.event)).toBeUndefined();
  });
});
