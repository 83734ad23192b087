/**
 * The process behaviour a terminal and a supervisor expect, through the documented command
 * (`pnpm start`), offline against the fake Discord REST (`DISCORD_API_URL`): stopped in each way
 * while `/ask` is still working, the bot finishes it (its answer reaches Discord) and exits 0,
 * leaving no process behind.
 */
import { fileURLToPath } from 'node:url';
import {
  type ExampleProcess,
  STOP_SCENARIOS,
  startExample,
} from '@rt/example-shared/example-process';
import {
  buildChatInputCommand,
  createDiscordSigner,
  type FakeDiscordRest,
  startFakeDiscordRest,
} from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('pnpm start under signals', () => {
  let example: ExampleProcess | undefined;
  let fake: FakeDiscordRest | undefined;
  afterEach(async () => {
    example?.kill();
    example = undefined;
    await fake?.close();
    fake = undefined;
  });

  for (const scenario of STOP_SCENARIOS) {
    it(`finishes the running /ask and exits 0: ${scenario.name}`, async () => {
      fake = await startFakeDiscordRest();
      const signer = createDiscordSigner();
      example = startExample({
        dir: EXAMPLE_DIR,
        env: {
          DISCORD_PUBLIC_KEY: signer.publicKey,
          DISCORD_APPLICATION_ID: '100000000000000001',
          DISCORD_BOT_TOKEN: 'signals-test-token',
          DISCORD_API_URL: fake.url,
          HOST: '127.0.0.1',
          PORT: '0',
        },
      });
      const [, url] = await example.waitFor(/listening on (http:\/\/\S+\/interactions)/);
      const ask = buildChatInputCommand({
        name: 'ask',
        options: { topic: 'signals' },
        applicationId: '100000000000000001',
      });
      fake.knowInteraction(ask);
      const request = signer.request(ask, { url: url! });
      const response = await fetch(url!, {
        method: 'POST',
        headers: request.headers,
        body: await request.text(),
      });
      // Deferred (type 5): `/ask` now works for a few seconds before it answers.
      expect(await response.json()).toMatchObject({ type: 5 });
      await scenario.stop(example);
      expect(await example.exited()).toBe(0);
      expect(example.output()).toContain(`${ask.id}: completed`);
      expect(example.output()).toContain('stopped');
      // Its answer replaced the deferred message, with the interaction's token.
      expect(fake.calls.some((call) => call.path.includes(ask.token))).toBe(true);
      expect(example.groupAlive()).toBe(false);
    });
  }
});
