/**
 * The program the Slack README's fragments run in: a Slack adapter `slack` serving HTTP, its
 * `runtime` on a memory State. A fragment registers handlers and calls the adapter's methods.
 */

import { createSlackAdapter } from '@rt/adapter-slack';
import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';

const slack = createSlackAdapter({
  signingSecret: process.env.SLACK_SIGNING_SECRET ?? 'signing-secret',
  botToken: process.env.SLACK_BOT_TOKEN ?? 'xoxb-token',
});
const runtime = createRuntime({ state: createMemoryState(), adapters: [slack] });

/* fragment */

export { runtime, slack };
