import type { RtEvent } from '@rt/core';
import {
  ChannelType,
  type GatewayMessageCreateDispatchData,
  MessageType,
} from 'discord-api-types/v10';
import type { BotMessagePolicy } from '../gateway/gateway-options.js';
import { tenantOf } from './installation.js';

/** What the gateway normalisers know besides the payload. */
export interface GatewayNormalizeContext {
  readonly adapter: string;
  readonly receivedAt: number;
  readonly applicationId: string;
  /** The bot's user id (from READY); `undefined` before it. */
  readonly botUserId: string | undefined;
  readonly botMessages: BotMessagePolicy;
  /**
   * What the client's cache knows of a channel: whether it is a thread and its parent. `undefined`
   * when the channel is not cached.
   */
  channelInfo(id: string): { readonly thread: boolean; readonly parentId?: string } | undefined;
  /**
   * The bot's managed role in a guild (what Discord inserts when a user picks the bot's role
   * instead of its user in the mention list), from the client's cache; `undefined` when unknown.
   */
  botRoleId?(guildId: string): string | undefined;
}

/** A gateway payload normalised: an event to dispatch, or a reason to leave it alone. */
export type GatewayNormalized<P> =
  | { readonly type: 'event'; readonly event: RtEvent<P> }
  | { readonly type: 'ignore'; readonly reason: string };

/** Message types people write (a plain message, a reply); system messages are not dispatched. */
const USER_MESSAGE_TYPES: ReadonlySet<number> = new Set([MessageType.Default, MessageType.Reply]);

const THREAD_TYPES: ReadonlySet<number> = new Set([
  ChannelType.AnnouncementThread,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
]);

/**
 * Where a gateway payload happened, in rt's terms (docs/contract.md §9.2): in a thread, `thread` = the thread
 * channel's id and `channel` = its `parent_id` (from the client's cache; absent when the thread is
 * not cached and only `channel_type` says it is one); elsewhere `channel` = the channel id.
 */
export function gatewayConversation(
  channelId: string,
  channelType: number | undefined,
  ctx: GatewayNormalizeContext,
): { readonly channel?: string; readonly thread?: string } {
  const info = ctx.channelInfo(channelId);
  if (info?.thread === true) {
    return info.parentId !== undefined
      ? { thread: channelId, channel: info.parentId }
      : { thread: channelId };
  }
  if (info === undefined && channelType !== undefined && THREAD_TYPES.has(channelType)) {
    return { thread: channelId };
  }
  return { channel: channelId };
}

/**
 * True when the bot is mentioned: listed in `mentions`, `<@id>` / `<@!id>` in the text, or its
 * managed role in `mention_roles`.
 */
function mentionsBot(
  message: GatewayMessageCreateDispatchData,
  botUserId: string,
  botRoleId: string | undefined,
): boolean {
  if (message.mentions?.some((user) => user.id === botUserId)) return true;
  if (botRoleId !== undefined && message.mention_roles?.includes(botRoleId)) return true;
  const content = message.content ?? '';
  return content.includes(`<@${botUserId}>`) || content.includes(`<@!${botUserId}>`);
}

function ignoredAuthor(
  message: GatewayMessageCreateDispatchData,
  ctx: GatewayNormalizeContext,
): string | undefined {
  const own = ctx.botUserId !== undefined && message.author?.id === ctx.botUserId;
  if (own) return ctx.botMessages === 'all' ? undefined : 'the bot’s own message';
  const bot = message.author?.bot === true || message.webhook_id !== undefined;
  if (bot && ctx.botMessages === 'ignore') return 'a message from another bot or a webhook';
  return undefined;
}

/**
 * Normalises a MESSAGE_CREATE (docs/events.md): a message mentioning the bot (its user, or its
 * managed role) → `mention`, any other
 * → `message` (DMs included); `text` the content as sent, `user` the author. Identity: the message
 * id. Tenant: the `guild_id`, in DMs `dm:<application_id>`. A message outside a guild (a DM) is
 * `direct`; a DM mentioning the bot is a `mention` with `fallbackKind` `message`, so a bot with
 * only message routes (`onDirectMessage`) still gets it, once. Thread and channel per
 * `gatewayConversation`. `shape` `message_create`, `type` `MESSAGE_CREATE`; the payload is kept
 * untouched. Ignored (never dispatched): system messages, and bot-authored ones per `botMessages`
 * (the bot's own unless `all`; other bots' and webhooks' unless `others` or `all`).
 */
export function normalizeGatewayMessage(
  message: GatewayMessageCreateDispatchData,
  ctx: GatewayNormalizeContext,
): GatewayNormalized<GatewayMessageCreateDispatchData> {
  if (typeof message?.id !== 'string' || typeof message.channel_id !== 'string') {
    return { type: 'ignore', reason: 'a message without id or channel_id' };
  }
  if (!USER_MESSAGE_TYPES.has(message.type)) {
    return { type: 'ignore', reason: `message type ${String(message.type)}` };
  }
  const ignored = ignoredAuthor(message, ctx);
  if (ignored !== undefined) return { type: 'ignore', reason: ignored };
  const botUserId = ctx.botUserId ?? ctx.applicationId;
  const guildId = typeof message.guild_id === 'string' ? message.guild_id : undefined;
  const channelType = (message as { channel_type?: unknown }).channel_type;
  const mention = mentionsBot(
    message,
    botUserId,
    guildId !== undefined ? ctx.botRoleId?.(guildId) : undefined,
  );
  // Outside a guild a bot only receives DMs: one user and the bot.
  const direct = guildId === undefined;
  const { channel, thread } = gatewayConversation(
    message.channel_id,
    typeof channelType === 'number' ? channelType : undefined,
    ctx,
  );
  // One literal of a fixed shape (no spreads), then the fields a message may add.
  const event: Mutable<RtEvent<GatewayMessageCreateDispatchData>> = {
    adapter: ctx.adapter,
    tenant: tenantOf(
      guildId === undefined
        ? { applicationId: ctx.applicationId }
        : { applicationId: ctx.applicationId, guildId },
    ),
    id: message.id,
    kind: mention ? 'mention' : 'message',
    shape: 'message_create',
    type: 'MESSAGE_CREATE',
    text: message.content ?? '',
    receivedAt: ctx.receivedAt,
    payload: message,
  };
  // A DM mentioning the bot: mention handlers run it, else message handlers (one run).
  if (direct && mention) event.fallbackKind = 'message';
  if (direct) event.direct = true;
  if (channel !== undefined) event.channel = channel;
  if (thread !== undefined) event.thread = thread;
  if (message.author?.id !== undefined) event.user = message.author.id;
  return { type: 'event', event };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
