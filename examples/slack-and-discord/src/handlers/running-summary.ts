/**
 * Conversations that continue (docs/conversations.md): at a mention in a thread the bot subscribes
 * to it, so later messages there reach it without a mention, and it keeps a running summary of the
 * thread in thread state. Every write is fenced by the handler's Thread Lock: if this instance lost
 * its lease (a long pause) and another one took the thread over, the write fails with
 * `StaleFenceError` instead of overwriting the successor's summary.
 */
import { type HandlerContext, type Runtime, StaleFenceError } from '@rt/core';

/** The thread's state: a short running summary and how many messages it covers. */
export interface RunningSummary {
  readonly summary: string;
  readonly messages: number;
}

/** The summary keeps the last this many characters (thread state is bounded to 16 KiB). */
const SUMMARY_CHARS = 2_000;
/** The bot stops following a thread after this many messages. */
const MAX_MESSAGES = 50;

function appended(current: RunningSummary | undefined, ctx: HandlerContext): RunningSummary {
  const line = `${ctx.event.user ?? 'someone'}: ${ctx.event.text ?? ''}`;
  const summary = current === undefined ? line : `${current.summary}\n${line}`;
  return { summary: summary.slice(-SUMMARY_CHARS), messages: (current?.messages ?? 0) + 1 };
}

/**
 * At a mention in a thread (a Slack message and its replies, a Discord thread channel): subscribe
 * and start the summary. A Discord mention outside a thread has no thread to follow.
 */
export async function startFollowing(ctx: HandlerContext): Promise<void> {
  if (ctx.thread.key === undefined) return;
  await ctx.thread.subscribe();
  await ctx.thread.state.update<RunningSummary>((current) => appended(current, ctx));
}

/** A plain message in a followed thread: add it to the summary and say how far it got. */
export async function continueSummary(ctx: HandlerContext): Promise<void> {
  let next: RunningSummary;
  try {
    next = await ctx.thread.state.update<RunningSummary>((current) => appended(current, ctx));
  } catch (error) {
    // Another instance took this thread over after this one lost its lease: it answers now.
    if (error instanceof StaleFenceError) return;
    throw error;
  }
  if (next.messages >= MAX_MESSAGES) {
    await ctx.thread.unsubscribe();
    await ctx.reply(`That is ${next.messages} messages: I stop following this thread here.`);
    return;
  }
  await ctx.reply(`Noted (${next.messages} message(s) in my summary of this thread).`);
}

/** Registers both handlers: after `onMention`'s reply, the mention also starts following. */
export function followThreads(runtime: Runtime): void {
  runtime.onMention(startFollowing);
  runtime.onSubscribedMessage(continueSummary);
}
