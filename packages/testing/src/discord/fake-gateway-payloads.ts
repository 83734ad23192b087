import { FAKE_GATEWAY_THREAD_ID } from './fake-gateway-guilds.js';
import { DISCORD_TEST_IDS } from './payloads.js';

/**
 * Builders of gateway dispatch payloads (`d` of MESSAGE_CREATE and MESSAGE_REACTION_ADD/REMOVE)
 * as Discord sends them (API v10), for `FakeDiscordGateway.dispatch`. Fresh ids unless given.
 */

let sequence = 0;

function nextId(): string {
  sequence += 1;
  return String(800_000_000_000_000_000n + BigInt(sequence));
}

/** Options of `buildGatewayMessage`. */
export interface GatewayMessageOptions {
  readonly id?: string;
  readonly content?: string;
  /** Where: a guild text channel (default), the default guild's thread, or a DM. */
  readonly where?: 'channel' | 'thread' | 'dm';
  /** The channel id (default: the test channel, the fake's thread, or a DM channel). */
  readonly channelId?: string;
  readonly guildId?: string;
  /** The author. Default the test user. */
  readonly authorId?: string;
  /** The author is a bot (set for the bot's own messages too). */
  readonly bot?: boolean;
  /** User ids mentioned (a `<@id>` is prepended to the content for each). */
  readonly mentions?: readonly string[];
}

/** The test DM channel between the bot and the test user. */
export const FAKE_DM_CHANNEL_ID = '320000000000000032';

/** A MESSAGE_CREATE payload. In DMs it has no `guild_id` and carries `channel_type` 1. */
export function buildGatewayMessage(options: GatewayMessageOptions = {}): Record<string, unknown> {
  const where = options.where ?? 'channel';
  const authorId = options.authorId ?? DISCORD_TEST_IDS.userId;
  const author = {
    id: authorId,
    username: options.bot ? 'a-bot' : `user${authorId.slice(-4)}`,
    discriminator: '0',
    global_name: null,
    avatar: null,
    ...(options.bot ? { bot: true } : {}),
  };
  const mentions = (options.mentions ?? []).map((id) => ({
    id,
    username: `user${id.slice(-4)}`,
    discriminator: '0',
    global_name: null,
    avatar: null,
  }));
  const prefix = (options.mentions ?? []).map((id) => `<@${id}> `).join('');
  const channelId =
    options.channelId ??
    (where === 'thread'
      ? FAKE_GATEWAY_THREAD_ID
      : where === 'dm'
        ? FAKE_DM_CHANNEL_ID
        : DISCORD_TEST_IDS.channelId);
  const message: Record<string, unknown> = {
    id: options.id ?? nextId(),
    type: 0,
    channel_id: channelId,
    author,
    content: `${prefix}${options.content ?? 'hello'}`,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions,
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    flags: 0,
    components: [],
  };
  if (where === 'dm') {
    message.channel_type = 1;
  } else {
    message.guild_id = options.guildId ?? DISCORD_TEST_IDS.guildId;
    message.channel_type = where === 'thread' ? 11 : 0;
    message.member = { roles: [], joined_at: new Date(0).toISOString(), deaf: false, mute: false };
  }
  return message;
}

/** Options of `buildGatewayReaction`. */
export interface GatewayReactionOptions {
  readonly messageId?: string;
  readonly channelId?: string;
  /** Omit the guild (`null`) for a DM reaction. Default the test guild. */
  readonly guildId?: string | null;
  readonly userId?: string;
  /** Emoji name (unicode, or a custom emoji's name with `emojiId`). Default `👍`. */
  readonly emoji?: string;
  readonly emojiId?: string;
}

/** A MESSAGE_REACTION_ADD (or _REMOVE) payload. */
export function buildGatewayReaction(
  options: GatewayReactionOptions = {},
): Record<string, unknown> {
  const guildId = options.guildId === undefined ? DISCORD_TEST_IDS.guildId : options.guildId;
  return {
    user_id: options.userId ?? DISCORD_TEST_IDS.userId,
    channel_id: options.channelId ?? DISCORD_TEST_IDS.channelId,
    message_id: options.messageId ?? nextId(),
    emoji: { id: options.emojiId ?? null, name: options.emoji ?? '👍' },
    burst: false,
    type: 0,
    ...(guildId !== null ? { guild_id: guildId } : {}),
  };
}
