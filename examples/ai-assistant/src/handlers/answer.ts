/**
 * The assistant's one handler, for a mention and for a plain message in a thread it follows
 * (docs/conversations.md): at a mention it subscribes the thread; then it streams the model's
 * answer with `ctx.stream` (docs/streaming.md), passing `ctx.signal` to `streamText` so a
 * shutdown, a lost lease or a detach timeout aborts the model request too, not only the reading.
 * Under the `queue` strategy, messages that arrived while an earlier answer streamed are superseded
 * by the newest one and reach its run in `ctx.skipped`: the prompt names them. Once the answer is
 * shown, the thread's running summary (fenced thread state) records the turn.
 */
import { type HandlerContext, StaleFenceError } from '@rt/core';
import { type LanguageModel, streamText } from 'ai';
import { appendTurn, type RunningSummary } from './running-summary.js';

/** What the handler needs. */
export interface AnswerOptions {
  readonly model: LanguageModel;
}

const SYSTEM = 'You are a helpful assistant in a team chat. Answer briefly.';

/** A message's text without user mentions (`<@U0BOT>`, `<@!123>`), or a placeholder. */
function textOf(text: string | undefined): string {
  return (text ?? '').replace(/<@[!&]?\w+>/g, '').trim() || '(empty message)';
}

/** The user prompt of a run: the messages it skipped (oldest first), then the one it answers. */
export function promptOf(ctx: HandlerContext): string {
  const text = textOf(ctx.event.text);
  if (ctx.skipped.length === 0) return text;
  const earlier = ctx.skipped.map((event) => `- ${textOf(event.text)}`);
  return `While you were answering, ${ctx.skipped.length} more message(s) arrived:\n${earlier.join('\n')}\nand then: ${text}`;
}

function systemOf(summary: RunningSummary | undefined): string {
  return summary === undefined ? SYSTEM : `${SYSTEM}\nThe conversation so far:\n${summary.summary}`;
}

/** The handler of `onMention` and `onSubscribedMessage`, on every adapter. */
export function answerWith(options: AnswerOptions): (ctx: HandlerContext) => Promise<void> {
  return async (ctx) => {
    const inThread = ctx.thread.key !== undefined;
    // A Discord mention outside a thread channel has no thread to follow: it is answered alone.
    if (inThread && ctx.event.kind === 'mention') await ctx.thread.subscribe();
    const summary = inThread ? await ctx.thread.state.get<RunningSummary>() : undefined;
    const prompt = promptOf(ctx);
    const result = streamText({
      model: options.model,
      system: systemOf(summary),
      prompt,
      abortSignal: ctx.signal, // cancelling the textStream alone would not stop the request
    });
    // Rejects with StreamInterruptedError when ctx.signal aborts: the reply then ends with the
    // interrupted marker and the delivery's outcome says why (shutdown, preempted, timed-out).
    await ctx.stream(result.textStream);
    if (!inThread) return;
    try {
      await ctx.thread.state.update<RunningSummary>((current) =>
        appendTurn(current, ctx.event.user ?? 'someone', prompt),
      );
    } catch (error) {
      // This instance lost its lease and a successor took the thread over: its summary wins.
      if (error instanceof StaleFenceError) return;
      throw error;
    }
  };
}
