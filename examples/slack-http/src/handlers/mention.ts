/**
 * `app_mention`: acknowledges with a reaction, reads the thread back from Slack (the History
 * Reader capability; history is never kept in Runtime State) and replies in the thread with a
 * button.
 */
import type { SlackAdapter, SlackEventCallback } from '@rt/adapter-slack';
import { type HandlerContext, type HistoryMessage, isHistoryReader } from '@rt/core';

/** The `action_id` of the button the mention reply carries. */
export const THANKS_ACTION_ID = 'rt_thanks';

/** How many thread messages the bot reads back at most. */
const HISTORY_LIMIT = 20;

/** Handler of `app_mention` events. */
export async function onMention(ctx: HandlerContext): Promise<void> {
  const slack = ctx.adapter as SlackAdapter;
  // Best-effort "seen it" signal; a failed reaction must not cost the reply.
  await slack.react(ctx.event, 'eyes').catch(() => undefined);

  const history = await readThread(ctx);
  ctx.signal.throwIfAborted();
  // The thread includes the mention itself: count only what came before it.
  const mentionTs = (ctx.event.payload as SlackEventCallback).event.ts;
  const earlier = history.filter((message) => message.id !== mentionTs);
  const fromPeople = earlier.filter((message) => !message.fromBot).length;
  const text =
    history.length === 0
      ? `Hi <@${ctx.event.user ?? 'there'}>! I could not read this thread's history.`
      : `Hi <@${ctx.event.user ?? 'there'}>! This thread has ${earlier.length} earlier message(s), ${fromPeople} from people.`;

  await ctx.reply({
    text,
    extra: {
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text } },
        {
          type: 'actions',
          block_id: 'rt_actions',
          elements: [
            {
              type: 'button',
              action_id: THANKS_ACTION_ID,
              text: { type: 'plain_text', text: 'Thanks!' },
              value: 'thanks',
            },
          ],
        },
      ],
    },
  });
}

/** The event's thread, oldest first; empty when the adapter cannot read history or Slack refuses. */
async function readThread(ctx: HandlerContext): Promise<HistoryMessage[]> {
  if (!isHistoryReader(ctx.adapter)) return [];
  try {
    return await ctx.adapter.readHistory(ctx.event, { limit: HISTORY_LIMIT, signal: ctx.signal });
  } catch (error) {
    // An abort is the runtime telling us to stop: let it end the handler.
    if (ctx.signal.aborted) throw error;
    return [];
  }
}
