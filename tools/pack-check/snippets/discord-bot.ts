/**
 * The program the Discord guides' fragments run in: a Discord adapter `discord`, its `runtime` on
 * a memory State, and `handleAsk`, the bot's handler for its `/ask` command.
 */

import { createDiscordAdapter } from '@rt/adapter-discord';
import { createRuntime, type Handler } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';

const discord = createDiscordAdapter({
  publicKey: process.env.DISCORD_PUBLIC_KEY ?? '0'.repeat(64),
  applicationId: process.env.DISCORD_APPLICATION_ID ?? '1',
  botToken: process.env.DISCORD_BOT_TOKEN ?? 'bot-token',
});
const runtime = createRuntime({ state: createMemoryState(), adapters: [discord] });
const handleAsk: Handler = async (ctx) => {
  await ctx.reply(`You asked: ${ctx.event.text ?? ''}`);
};

/* fragment */

export { discord, handleAsk, runtime };
