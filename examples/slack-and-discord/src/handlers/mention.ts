/**
 * A mention, on either platform: reads the conversation back from the platform (the History Reader
 * capability, which both adapters offer; history is never kept in Runtime State) and replies. On
 * Slack the reply goes in the mention's thread; on Discord it is a reply to the message, in its
 * channel or thread. `<@user>` mentions the user on both.
 */
import { type HandlerContext, isHistoryReader } from '@rt/core';

/** How many earlier messages the bot reads back at most. */
const HISTORY_LIMIT = 20;

/** The platform's name for people: the adapter's name is enough here. */
function platformOf(ctx: HandlerContext): string {
  return ctx.event.adapter === 'slack' ? 'Slack' : 'Discord';
}

/** Handler of `mention` events, on every adapter. */
export async function onMention(ctx: HandlerContext): Promise<void> {
  let seen: number | undefined;
  if (isHistoryReader(ctx.adapter)) {
    try {
      const history = await ctx.adapter.readHistory(ctx.event, {
        limit: HISTORY_LIMIT,
        signal: ctx.signal,
      });
      seen = history.length;
    } catch {
      // History is a nicety: a failed read must not cost the reply.
    }
  }
  ctx.signal.throwIfAborted();
  const who = ctx.event.user !== undefined ? `<@${ctx.event.user}>` : 'there';
  const context =
    seen === undefined
      ? 'I could not read this conversation.'
      : `This conversation has ${seen} message(s), yours included.`;
  await ctx.reply(`Hi ${who}! You reached me on ${platformOf(ctx)}. ${context}`);
}
