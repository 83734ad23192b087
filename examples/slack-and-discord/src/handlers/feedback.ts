/**
 * The card's buttons and select, on either platform: `event.value` is the same on both. A click on
 * a feedback button reacts to the card and thanks the clicker ephemerally (only they see it); a
 * follow-up choice is answered ephemerally too.
 */
import { escapeText, type HandlerContext } from '@rt/core';

/** Handler of the feedback buttons (`onAction('feedback')`). */
export async function onFeedback(ctx: HandlerContext): Promise<void> {
  const helpful = ctx.event.value === 'yes';
  if (ctx.event.message !== undefined) await ctx.react(helpful ? '👍' : '👎', ctx.event.message);
  await ctx.ephemeral(helpful ? 'Thanks, glad it helped!' : 'Thanks, I will try to do better.');
}

/** Handler of the follow-up select (`onAction('follow-up')`). */
export async function onFollowUp(ctx: HandlerContext): Promise<void> {
  const choice = ctx.event.value ?? 'nothing';
  await ctx.ephemeral(`You picked _${escapeText(choice)}_: try \`/${choice}\`.`);
}
