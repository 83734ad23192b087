/**
 * The process behaviour a terminal and a supervisor expect, through the documented command
 * (`pnpm start`): stopped in each way while a handler runs, the bot finishes that handler and
 * exits 0, leaving no process behind.
 */
import { fileURLToPath } from 'node:url';
import {
  type ExampleProcess,
  STOP_SCENARIOS,
  startExample,
} from '@rt/example-shared/example-process';
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
  let fake: FakeSlackApi | undefined;
  afterEach(async () => {
    example?.kill();
    example = undefined;
    await fake?.close();
    fake = undefined;
  });

  for (const scenario of STOP_SCENARIOS) {
    it(`finishes the running handler and exits 0: ${scenario.name}`, async () => {
      fake = await startFakeSlackApi();
      // The reply takes a while: the handler is still running when the signals arrive.
      fake.delay('chat.postMessage', 1_500);
      example = startExample({
        dir: EXAMPLE_DIR,
        env: {
          SLACK_SIGNING_SECRET: SECRET,
          SLACK_BOT_TOKEN: 'xoxb-signals-test',
          SLACK_API_URL: fake.url,
          HOST: '127.0.0.1',
          PORT: '0',
        },
      });
      const [, url] = await example.waitFor(/listening on (http:\/\/\S+\/slack\/events)/);
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
      await fake.waitForCalls('chat.postMessage'); // the handler is inside its reply now
      await scenario.stop(example);
      expect(await example.exited()).toBe(0);
      const eventId = (mention.data as { event_id: string }).event_id;
      expect(example.output()).toContain(`event_callback ${eventId}: completed`);
      expect(example.output()).toContain('stopped');
      expect(example.groupAlive()).toBe(false);
    });
  }
});
