/**
 * The program the guides' handler fragments run in: one `runtime` on a memory State serving a
 * Slack adapter and a Discord adapter, so a fragment's handlers answer on both platforms.
 */

import { createDiscordAdapter } from '@rt/adapter-discord';
import { createSlackAdapter } from '@rt/adapter-slack';
import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';

const slack = createSlackAdapter({
  signingSecret: process.env.SLACK_SIGNING_SECRET ?? 'signing-secret',
  botToken: process.env.SLACK_BOT_TOKEN ?? 'xoxb-token',
});
const discord = createDiscordAdapter({
  publicKey: process.env.DISCORD_PUBLIC_KEY ?? '0'.repeat(64),
  applicationId: process.env.DISCORD_APPLICATION_ID ?? '1',
  botToken: process.env.DISCORD_BOT_TOKEN ?? 'bot-token',
});
const runtime = createRuntime({ state: createMemoryState(), adapters: [slack, discord] });

/* fragment */

export { runtime };
