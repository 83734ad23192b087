import { ChannelType } from 'discord-api-types/v10';
import type { DiscordInteraction } from '../parse/payload-types.js';

const THREAD_TYPES: ReadonlySet<number> = new Set([
  ChannelType.AnnouncementThread,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
]);

/** Where an interaction happened, in rt's terms. */
export interface Conversation {
  /** The channel; for an interaction in a thread, the thread's parent channel. */
  readonly channel?: string;
  /** The thread channel's id, for an interaction in a thread; otherwise absent. */
  readonly thread?: string;
  /** The invoking user (`member.user.id` in guilds, `user.id` in DMs). */
  readonly user?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The channel, thread and user of an interaction. Threads are channels on Discord: an interaction
 * in one (its `channel.type` 10, 11 or 12) gets `thread` = the thread's id and `channel` = its
 * `parent_id`, so thread scope locks the thread and channel scope the parent channel (docs/contract.md §9.2).
 * Elsewhere `channel` is the channel id and there is no thread: under thread scope such an
 * interaction is its own conversation, like a Slack slash command.
 */
export function conversationOf(interaction: DiscordInteraction): Conversation {
  const partial = interaction.channel as { id?: unknown; type?: unknown; parent_id?: unknown };
  const channelId = text(partial?.id) ?? text(interaction.channel_id);
  const user = text(interaction.member?.user?.id) ?? text(interaction.user?.id);
  // Built by assignment, not spreads: one object, and a field absent rather than undefined.
  const conversation: { user?: string; thread?: string; channel?: string } = {};
  if (user !== undefined) conversation.user = user;
  if (typeof partial?.type === 'number' && THREAD_TYPES.has(partial.type) && channelId) {
    conversation.thread = channelId;
    const parent = text(partial.parent_id);
    if (parent !== undefined) conversation.channel = parent;
  } else if (channelId !== undefined) conversation.channel = channelId;
  return conversation;
}
