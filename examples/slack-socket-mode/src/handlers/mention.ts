/** `app_mention`: replies in the mention's thread (`ctx.reply`, `chat.postMessage` with `thread_ts`). */
import type { HandlerContext } from '@rt/core';

/** Handler of `app_mention` events. */
export async function onMention(ctx: HandlerContext): Promise<void> {
  const who = ctx.event.user === undefined ? 'there' : `<@${ctx.event.user}>`;
  await ctx.reply(`Hi ${who}! I got this over Socket Mode.`);
}
