import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  buildAppMentionEvent,
  buildMessageEvent,
  buildSlashCommand,
  type FakeSlackApi,
  type FakeSocketMode,
  startFakeSlackApi,
  startFakeSocketMode,
} from '@rt/testing/slack';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
// An empty working directory, so a developer's own .env cannot leak into the test.
const cwd = mkdtempSync(join(tmpdir(), 'rt-example-socket-'));

/** Runs `src/main.ts` as `pnpm start` does (TypeScript sources through tsx), output collected. */
function spawnMain(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--conditions=@rt/source', '--import', TSX, MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { child, output: () => output };
}

describe('src/main.ts against the fake Slack', () => {
  let child: ChildProcess | undefined;
  let web: FakeSlackApi;
  let socket: FakeSocketMode;
  afterEach(async () => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
    await socket.close();
    await web.close();
  });
  afterAll(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  it('answers over Socket Mode and, on SIGTERM, closes its socket and exits 0 after draining', async () => {
    web = await startFakeSlackApi();
    socket = await startFakeSocketMode({ redeliverAfterMs: false });
    const started = spawnMain({
      SLACK_APP_TOKEN: 'xapp-main-test',
      SLACK_BOT_TOKEN: 'xoxb-main-test',
      SLACK_API_URL: web.url,
      SLACK_SOCKET_API_URL: socket.apiUrl,
    });
    child = started.child;
    const connection = await socket.waitForConnection(1, 30_000);

    const ping = socket.send(buildSlashCommand({ command: '/rt-ping' }));
    expect((await socket.waitForAck(ping.envelope_id)).payload).toEqual({
      response_type: 'ephemeral',
      text: expect.stringMatching(/^pong/),
    });
    const mention = socket.send(buildAppMentionEvent({ text: '<@U0BOT> hi', ts: '1700.0001' }));
    expect((await socket.waitForAck(mention.envelope_id)).payload).toEqual({});
    const [reply] = await web.waitForCalls('chat.postMessage');
    expect(reply?.args).toMatchObject({ thread_ts: '1700.0001' });

    const exited = once(started.child, 'exit');
    started.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(started.output()).toContain('SIGTERM: shutting down');
    expect(started.output()).toContain('stopped');
    expect((await connection.closed).by).toBe('client');
    expect(socket.connections).toHaveLength(1);
    // An event sent after the close finds no connection and stays with Slack for redelivery.
    expect(() => socket.send(buildMessageEvent())).toThrow(/no open connection/);
  });

  it('refuses to start without its tokens, naming the missing variable', async () => {
    web = await startFakeSlackApi();
    socket = await startFakeSocketMode();
    const started = spawnMain({ SLACK_BOT_TOKEN: 'xoxb-x' });
    child = started.child;
    const [code] = await once(started.child, 'exit');
    expect(code).not.toBe(0);
    expect(started.output()).toContain('SLACK_APP_TOKEN is not set');
  });
});
