/**
 * The program for fragments that create their own runtime: `adapters`, a Slack adapter and a
 * Discord adapter, for the fragment's `createRuntime({ state, adapters })`.
 */

import { createDiscordAdapter } from '@rt/adapter-discord';
import { createSlackAdapter } from '@rt/adapter-slack';

const adapters = [
  createSlackAdapter({
    signingSecret: process.env.SLACK_SIGNING_SECRET ?? 'signing-secret',
    botToken: process.env.SLACK_BOT_TOKEN ?? 'xoxb-token',
  }),
  createDiscordAdapter({
    publicKey: process.env.DISCORD_PUBLIC_KEY ?? '0'.repeat(64),
    applicationId: process.env.DISCORD_APPLICATION_ID ?? '1',
    botToken: process.env.DISCORD_BOT_TOKEN ?? 'bot-token',
  }),
];

/* fragment */

export { adapters };
