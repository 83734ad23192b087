/**
 * A mention, on either platform: shows typing where the platform can, reacts with 👀, reads the
 * conversation back (both adapters are History Readers; history is never kept in Runtime State)
 * and answers with a card: a feedback question with two buttons and a select of follow-ups. The
 * same code on Slack (Block Kit, in the mention's thread) and Discord (Components V2, a reply).
 */
import {
  actions,
  button,
  card,
  context,
  type HandlerContext,
  hasErrorCode,
  isHistoryReader,
  mentionUser,
  option,
  section,
  select,
} from '@rt/core';

/** How many earlier messages the bot reads back at most. */
const HISTORY_LIMIT = 20;

/** The buttons' action id (`onAction(FEEDBACK_ACTION)`); their values are `yes` and `no`. */
export const FEEDBACK_ACTION = 'feedback';
/** The select's action id; its values are the follow-up topics. */
export const FOLLOW_UP_ACTION = 'follow-up';

/** Runs an optional nicety: a platform that cannot do it (`UnsupportedActionError`) is fine. */
async function ifSupported(action: Promise<unknown>): Promise<void> {
  try {
    await action;
  } catch (error) {
    if (!hasErrorCode(error, 'RT_UNSUPPORTED_ACTION')) throw error;
  }
}

async function messagesSeen(ctx: HandlerContext): Promise<number | undefined> {
  if (!isHistoryReader(ctx.adapter)) return undefined;
  try {
    const history = await ctx.adapter.readHistory(ctx.event, {
      limit: HISTORY_LIMIT,
      signal: ctx.signal,
    });
    return history.length;
  } catch {
    // History is a nicety: a failed read must not cost the reply.
    return undefined;
  }
}

/** Handler of `mention` events, on every adapter. */
export async function onMention(ctx: HandlerContext): Promise<void> {
  await ifSupported(ctx.typing());
  await ctx.react('👀');
  const seen = await messagesSeen(ctx);
  const who = ctx.event.user !== undefined ? mentionUser(ctx.event.user) : 'there';
  await ctx.reply(
    card(
      { title: 'Hello!', fallback: 'Hello! Was this helpful?' },
      section(`Hi ${who}! You reached me on **${ctx.event.adapter}**.`),
      context(
        seen === undefined
          ? 'I could not read this conversation.'
          : `This conversation has ${seen} message(s), yours included.`,
      ),
      actions(
        button(FEEDBACK_ACTION, 'Helpful', { value: 'yes', style: 'primary' }),
        button(FEEDBACK_ACTION, 'Not helpful', { value: 'no', style: 'danger' }),
      ),
      actions(
        select(
          FOLLOW_UP_ACTION,
          [option('Show my status', 'status'), option('Give feedback', 'feedback')],
          { placeholder: 'What next?' },
        ),
      ),
    ),
  );
}
