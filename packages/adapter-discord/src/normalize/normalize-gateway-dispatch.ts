import { createHash } from 'node:crypto';
import type { GatewayMessageReactionAddDispatchData } from 'discord-api-types/v10';
import { tenantOf } from './installation.js';
import {
  type GatewayNormalizeContext,
  type GatewayNormalized,
  gatewayConversation,
} from './normalize-gateway-message.js';

/** A MESSAGE_REACTION_ADD or _REMOVE payload (the remove lacks `member`). */
export type GatewayReaction = Pick<
  GatewayMessageReactionAddDispatchData,
  'user_id' | 'channel_id' | 'message_id' | 'guild_id' | 'emoji' | 'member'
>;

function tenantFor(guildId: unknown, ctx: GatewayNormalizeContext): string {
  const { applicationId } = ctx;
  return tenantOf(
    typeof guildId === 'string' && guildId.length > 0
      ? { applicationId, guildId }
      : { applicationId },
  );
}

/**
 * Normalises MESSAGE_REACTION_ADD / _REMOVE to `reaction` (docs/events.md): `text` the emoji name
 * (route with `onReaction(name)`), `user` who reacted, thread and channel of the reacted-to
 * message's channel. A reaction has no id of its own: identity is
 * `<message>:<user>:<emoji>:add|remove`, so a replay is deduped (and so is the same user re-adding
 * the same emoji within the dedupe TTL). The bot's own reactions are ignored unless `botMessages`
 * is `all`; other bots' (when Discord says so) unless `others` or `all`.
 */
export function normalizeGatewayReaction(
  t: 'MESSAGE_REACTION_ADD' | 'MESSAGE_REACTION_REMOVE',
  reaction: GatewayReaction,
  ctx: GatewayNormalizeContext,
): GatewayNormalized<GatewayReaction> {
  if (
    typeof reaction?.message_id !== 'string' ||
    typeof reaction.channel_id !== 'string' ||
    typeof reaction.user_id !== 'string'
  ) {
    return { type: 'ignore', reason: 'a reaction without message_id, channel_id or user_id' };
  }
  if (reaction.user_id === ctx.botUserId && ctx.botMessages !== 'all') {
    return { type: 'ignore', reason: 'the bot’s own reaction' };
  }
  if (reaction.member?.user?.bot === true && ctx.botMessages === 'ignore') {
    return { type: 'ignore', reason: 'a reaction from another bot' };
  }
  const emoji = reaction.emoji?.name ?? reaction.emoji?.id ?? '';
  const emojiKey = reaction.emoji?.id ?? emoji;
  const add = t === 'MESSAGE_REACTION_ADD';
  return {
    type: 'event',
    event: {
      adapter: ctx.adapter,
      tenant: tenantFor(reaction.guild_id, ctx),
      id: `${reaction.message_id}:${reaction.user_id}:${emojiKey}:${add ? 'add' : 'remove'}`,
      kind: 'reaction',
      shape: add ? 'message_reaction_add' : 'message_reaction_remove',
      type: t,
      ...gatewayConversation(reaction.channel_id, undefined, ctx),
      user: reaction.user_id,
      text: emoji,
      receivedAt: ctx.receivedAt,
      payload: reaction,
    },
  };
}

/**
 * Normalises any other dispatch listed in `rawDispatches` to `raw` (route with
 * `onEvent('GUILD_MEMBER_ADD')`): `shape` `gateway_dispatch`, `type` the dispatch name, tenant the
 * payload's `guild_id` (else `dm:<application_id>`), channel and user when the payload names
 * them. Identity: the payload's `id` when it has one, else a digest of name and payload, so a
 * replayed dispatch is deduped.
 */
export function normalizeGatewayDispatch(
  t: string,
  d: unknown,
  ctx: GatewayNormalizeContext,
): GatewayNormalized<unknown> {
  if (typeof d !== 'object' || d === null) return { type: 'ignore', reason: `${t} without data` };
  const data = d as Record<string, unknown>;
  const own = typeof data.id === 'string' && data.id.length > 0 ? data.id : undefined;
  const id =
    own ??
    createHash('sha256')
      .update(`${t}\n${JSON.stringify(d)}`)
      .digest('base64url')
      .slice(0, 32);
  const channel = typeof data.channel_id === 'string' ? data.channel_id : undefined;
  const user =
    typeof data.user_id === 'string'
      ? data.user_id
      : typeof (data.user as { id?: unknown } | undefined)?.id === 'string'
        ? (data.user as { id: string }).id
        : undefined;
  return {
    type: 'event',
    event: {
      adapter: ctx.adapter,
      tenant: tenantFor(data.guild_id, ctx),
      id: `${t}:${id}`,
      kind: 'raw',
      shape: 'gateway_dispatch',
      type: t,
      ...(channel !== undefined ? gatewayConversation(channel, undefined, ctx) : {}),
      ...(user !== undefined ? { user } : {}),
      receivedAt: ctx.receivedAt,
      payload: d,
    },
  };
}
