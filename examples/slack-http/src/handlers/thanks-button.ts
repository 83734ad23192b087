/**
 * The "Thanks!" button on the mention reply: an ephemeral answer through the action's
 * `response_url`, so only the clicking user sees it.
 */

import type { SlackAdapter } from '@rt/adapter-slack';
import type { HandlerContext } from '@rt/core';

export async function onThanks(ctx: HandlerContext): Promise<void> {
  const slack = ctx.adapter as SlackAdapter;
  await slack.respond(ctx.event, `You're welcome, <@${ctx.event.user ?? 'friend'}>!`, {
    responseType: 'ephemeral',
    signal: ctx.signal,
  });
}
