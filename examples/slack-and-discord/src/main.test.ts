import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscord,
  startFakeDiscord,
} from '@rt/testing/discord';
import { type FakeSlackApi, startFakeSlackApi } from '@rt/testing/slack';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const TOKEN = 'main-test-discord-token';
// An empty working directory, so a developer's own .env cannot leak into the test.
const cwd = mkdtempSync(join(tmpdir(), 'rt-example-slack-and-discord-'));

/** Resolves once the output contains `text`; rejects when the process exits first. */
function printed(child: ChildProcess, output: () => string, text: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (!output().includes(text)) return;
      cleanup();
      resolve();
    };
    const onExit = () => {
      cleanup();
      reject(new Error(`exited before printing ${JSON.stringify(text)}:\n${output()}`));
    };
    const cleanup = () => {
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

describe('src/main.ts (pnpm start)', () => {
  let child: ChildProcess | undefined;
  let slack: FakeSlackApi | undefined;
  let discord: FakeDiscord | undefined;
  afterEach(async () => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
    await Promise.all([slack?.close(), discord?.close()]);
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it('connects the Discord gateway, answers a mention there, and exits 0 on SIGTERM after closing it with 1000', async () => {
    slack = await startFakeSlackApi({ tokens: ['xoxb-main'] });
    discord = await startFakeDiscord({ rest: { tokens: [TOKEN] }, gateway: { tokens: [TOKEN] } });
    child = spawn(process.execPath, ['--conditions=@rt/source', '--import', TSX, MAIN], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        SLACK_SIGNING_SECRET: 'secret',
        SLACK_BOT_TOKEN: 'xoxb-main',
        SLACK_API_URL: slack.url,
        DISCORD_PUBLIC_KEY: createDiscordSigner().publicKey,
        DISCORD_APPLICATION_ID: DISCORD_TEST_IDS.applicationId,
        DISCORD_BOT_TOKEN: TOKEN,
        DISCORD_API_URL: discord.rest.url,
        HOST: '127.0.0.1',
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);

    await printed(child, () => output, 'Discord gateway connected');
    const mention = buildGatewayMessage({
      content: 'hi',
      mentions: [DISCORD_TEST_IDS.applicationId],
    });
    discord.gateway.dispatch('MESSAGE_CREATE', mention);
    const [reply] = await discord.rest.waitForCalls('POST /channels/:channel/messages', 1, 15_000);
    expect(reply?.body).toMatchObject({ message_reference: { message_id: mention.id } });
    expect(JSON.stringify(reply?.body)).toContain('You reached me on **discord**');

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(output).toContain('SIGTERM: shutting down');
    expect(output).toContain('stopped');
    expect(await discord.gateway.waitFor('close')).toEqual([
      { type: 'close', code: 1000, byClient: true },
    ]);
  }, 60_000);
});
