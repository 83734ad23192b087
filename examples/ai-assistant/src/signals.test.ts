/**
 * A deploy in the middle of an answer, through the documented command (`pnpm start`), offline
 * against the fake Slack Web API with the mock model writing slowly: a supervisor's SIGTERM while
 * the reply streams gives it `SHUTDOWN_GRACE_MS`, then the reply ends with the interrupted marker
 * (never a half message that looks finished), the delivery's outcome is `shutdown`, and the
 * process exits 0 leaving nothing behind.
 */
import { fileURLToPath } from 'node:url';
import { type ExampleProcess, startExample } from '@rt/example-shared/example-process';
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
import { mockAnswer } from './model.js';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));
const SECRET = 'signals-test-secret';
const INTERRUPTED = '\n\n_(interrupted)_';

describe('pnpm start, SIGTERM mid-stream', () => {
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

  it('ends the streaming reply with the interrupted marker and exits 0', async () => {
    slack = await startFakeSlackApi();
    discord = await startFakeDiscordRest();
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
        // A word a second: the answer takes seconds, far longer than the grace period.
        MOCK_CHUNK_DELAY_MS: '1000',
        SHUTDOWN_GRACE_MS: '300',
        HOST: '127.0.0.1',
        PORT: '0',
      },
    });
    const [, url] = await example.waitFor(/Slack Request URL: (http:\/\/\S+)/);
    await example.waitFor('Discord gateway off');
    expect(example.output()).toContain('model: the AI SDK mock model');
    const mention = buildAppMentionEvent({ text: '<@U0BOT> tell me a long story' });
    const response = await fetch(url!, {
      method: 'POST',
      headers: {
        'content-type': mention.contentType,
        ...createSlackSigner(SECRET).sign(mention.body),
      },
      body: mention.body,
    });
    expect(response.status).toBe(200);
    // The first part of the answer is shown (Slack's native stream: the mention carries its user
    // and team): the reply is streaming now.
    await slack.waitForCalls('chat.appendStream');
    const answer = mockAnswer('tell me a long story');
    const firstText = slack.messages.all()[0]?.text ?? '';
    expect(firstText.length).toBeGreaterThan(0);
    expect(answer.startsWith(firstText)).toBe(true);
    expect(firstText.length).toBeLessThan(answer.length);

    example.signalCommand('SIGTERM');
    await example.waitFor('SIGTERM: shutting down');
    expect(await example.exited()).toBe(0);

    const [message] = slack.messages.all();
    expect(message?.text.endsWith(INTERRUPTED)).toBe(true);
    const shown = message?.text.slice(0, -INTERRUPTED.length) ?? '';
    expect(answer.startsWith(shown)).toBe(true);
    expect(shown.length).toBeLessThan(answer.length);
    const eventId = (mention.data as { event_id: string }).event_id;
    expect(example.output()).toContain('stream slack-stream: interrupted');
    expect(example.output()).toContain(`slack event_callback ${eventId}: shutdown`);
    expect(example.output()).toContain('stopped');
    // Nothing is left behind: a straggler of the group (tsx's esbuild service) may take a moment
    // to go after node exits under load; an orphaned bot would stay.
    await expect.poll(() => example?.groupAlive(), { timeout: 10_000 }).toBe(false);
  }, 60_000);
});
