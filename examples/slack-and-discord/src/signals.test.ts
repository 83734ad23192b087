/**
 * The process behaviour a terminal and a supervisor expect, through the documented command
 * (`pnpm start`), offline against the fake Slack Web API and Discord REST: stopped in each way
 * while a Slack mention handler runs, the bot finishes it and exits 0, leaving no process behind.
 */
import { fileURLToPath } from 'node:url';
import {
  type ExampleProcess,
  STOP_SCENARIOS,
  startExample,
} from '@rt/example-shared/example-process';
import {
  createDiscordSigner,
  type FakeDiscordRest,
  startFakeDiscordRest,
} from '@rt/testing/discord';
import {
  buildAppMentionEvent,
  createSlackSigner,
  type FakeSlackApi,
  startFakeSlackApi,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SECRET = 'signals-test-secret';

describe('pnpm start under signals', () => {
  let example: ExampleProcess | undefined;
  let slack: FakeSlackApi | undefined;
  let discord: FakeDiscordRest | undefined;
  afterEach(async () => {
    example?.kill();
    example = undefined;
    await slack?.close();
    await discord?.close();
    slack = undefined;
    discord = undefined;
  });

  for (const scenario of STOP_SCENARIOS) {
    it(`finishes the running handler and exits 0: ${scenario.name}`, async () => {
      slack = await startFakeSlackApi();
      discord = await startFakeDiscordRest();
      // The reply takes a while: the handler is still running when the signals arrive.
      slack.delay('chat.postMessage', 1_500);
      example = startExample({
        dir: EXAMPLE_DIR,
        env: {
          SLACK_SIGNING_SECRET: SECRET,
          SLACK_BOT_TOKEN: 'xoxb-signals-test',
          SLACK_API_URL: slack.url,
          DISCORD_PUBLIC_KEY: createDiscordSigner().publicKey,
          DISCORD_APPLICATION_ID: '100000000000000001',
          DISCORD_BOT_TOKEN: 'signals-test-token',
          DISCORD_API_URL: discord.url,
          DISCORD_GATEWAY: 'off',
          HOST: '127.0.0.1',
          PORT: '0',
        },
      });
      const [, url] = await example.waitFor(/Slack Request URL: (http:\/\/\S+)/);
      await example.waitFor('Discord gateway off');
      const mention = buildAppMentionEvent({ text: '<@U0BOT> hi' });
      const response = await fetch(url!, {
        method: 'POST',
        headers: {
          'content-type': mention.contentType,
          ...createSlackSigner(SECRET).sign(mention.body),
        },
        body: mention.body,
      });
      expect(response.status).toBe(200);
      await slack.waitForCalls('chat.postMessage'); // the handler is inside its reply now
      await scenario.stop(example);
      expect(await example.exited()).toBe(0);
      const eventId = (mention.data as { event_id: string }).event_id;
      expect(example.output()).toContain(`slack event_callback ${eventId}: completed`);
      expect(example.output()).toContain('stopped');
      expect(example.groupAlive()).toBe(false);
    });
  }
});
