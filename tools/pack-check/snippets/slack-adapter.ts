/**
 * The program the State READMEs' fragments run in: a Slack adapter `slack` serving HTTP, for the
 * fragment to create a State and a runtime around it.
 */

import { createSlackAdapter } from '@rt/adapter-slack';

const slack = createSlackAdapter({
  signingSecret: process.env.SLACK_SIGNING_SECRET ?? 'signing-secret',
  botToken: process.env.SLACK_BOT_TOKEN ?? 'xoxb-token',
});

/* fragment */

export { slack };
