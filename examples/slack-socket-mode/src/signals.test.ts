/**
 * The process behaviour a terminal and a supervisor expect, through the documented command
 * (`pnpm start`): stopped in each way while a handler runs, the bot finishes that handler, closes
 * its socket and exits 0, leaving no process behind.
 */
import { fileURLToPath } from 'node:url';
import {
  type ExampleProcess,
  STOP_SCENARIOS,
  startExample,
} from '@rt/example-shared/example-process';
import {
  buildAppMentionEvent,
  type FakeSlackApi,
  type FakeSocketMode,
  startFakeSlackApi,
  startFakeSocketMode,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('pnpm start under signals', () => {
  let example: ExampleProcess | undefined;
  let web: FakeSlackApi | undefined;
  let socket: FakeSocketMode | undefined;
  afterEach(async () => {
    example?.kill();
    example = undefined;
    await socket?.close();
    await web?.close();
    socket = undefined;
    web = undefined;
  });

  for (const scenario of STOP_SCENARIOS) {
    it(`finishes the running handler and exits 0: ${scenario.name}`, async () => {
      web = await startFakeSlackApi();
      socket = await startFakeSocketMode({ redeliverAfterMs: false });
      // The reply takes a while: the handler is still running when the signals arrive.
      web.delay('chat.postMessage', 1_500);
      example = startExample({
        dir: EXAMPLE_DIR,
        env: {
          SLACK_APP_TOKEN: 'xapp-signals-test',
          SLACK_BOT_TOKEN: 'xoxb-signals-test',
          SLACK_API_URL: web.url,
          SLACK_SOCKET_API_URL: socket.apiUrl,
        },
      });
      const connection = await socket.waitForConnection(1, 30_000);
      const mention = socket.send(buildAppMentionEvent({ text: '<@U0BOT> hi' }));
      await socket.waitForAck(mention.envelope_id);
      await web.waitForCalls('chat.postMessage'); // the handler is inside its reply now
      await scenario.stop(example);
      expect(await example.exited()).toBe(0);
      expect(example.output()).toMatch(/event_callback \S+: completed/);
      expect(example.output()).toContain('stopped');
      expect((await connection.closed).by).toBe('client');
      expect(example.groupAlive()).toBe(false);
    });
  }
});
