import type { Handler } from '@rt/core';

/** The "Helpful" button: acknowledged with type 6; the reply is an ephemeral follow-up. */
export const helpfulButton: Handler = async (ctx) => {
  await ctx.reply({ text: 'Glad it helped!', extra: { flags: 64 } });
};
