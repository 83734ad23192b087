import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  buildAppMentionEvent,
  buildUrlVerification,
  createSlackSigner,
  type FakeSlackApi,
  startFakeSlackApi,
} from '@rt/testing/slack';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const SECRET = 'main-test-secret';
// An empty working directory, so a developer's own .env cannot leak into the test.
const cwd = mkdtempSync(join(tmpdir(), 'rt-example-main-'));

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

/** Resolves the URL from the listening line; rejects if the process exits first. */
function listeningUrl(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no listening line:\n${output()}`)), 30_000);
    const check = () => {
      const match = /listening on (http:\/\/[^\s]+\/slack\/events)/.exec(output());
      if (match?.[1] !== undefined) done(undefined, match[1]);
    };
    const onExit = (code: number | null) =>
      done(new Error(`exited with ${String(code)} before listening:\n${output()}`));
    function done(error?: Error, url?: string) {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
      if (error !== undefined) reject(error);
      else resolve(url as string);
    }
    child.stdout?.on('data', check);
    child.once('exit', onExit);
  });
}

/** Posts `payload` to the bot, signed with `secret` (a wrong one gets 401). */
function post(url: string, payload: { contentType: string; body: string }, secret = SECRET) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': payload.contentType,
      ...createSlackSigner(secret).sign(payload.body),
    },
    body: payload.body,
  });
}

/** Resolves once the output contains `text`; rejects when the process exits first. */
function outputContains(child: ChildProcess, output: () => string, text: string): Promise<void> {
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

describe('src/main.ts', () => {
  let child: ChildProcess | undefined;
  let fake: FakeSlackApi | undefined;
  afterEach(async () => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
    await fake?.close();
    fake = undefined;
  });
  afterAll(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  it('serves signed Slack requests and exits 0 after draining on SIGTERM', async () => {
    const started = spawnMain({
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_BOT_TOKEN: 'xoxb-main-test',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    child = started.child;
    const url = await listeningUrl(started.child, started.output);
    expect(new URL(url).hostname).toBe('127.0.0.1');

    const payload = buildUrlVerification('challenge-from-slack');
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': payload.contentType,
        ...createSlackSigner(SECRET).sign(payload.body),
      },
      body: payload.body,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('challenge-from-slack');

    const exited = once(started.child, 'exit');
    started.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(started.output()).toContain('SIGTERM: shutting down');
    expect(started.output()).toContain('stopped');
  });

  it('refuses to start without its Slack credentials, naming the missing variable', async () => {
    const started = spawnMain({ HOST: '127.0.0.1', PORT: '0' });
    child = started.child;
    const [code] = await once(started.child, 'exit');
    expect(code).not.toBe(0);
    expect(started.output()).toContain('SLACK_SIGNING_SECRET is not set');
  });

  it('logs a rejected signature with its reason', async () => {
    const started = spawnMain({
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_BOT_TOKEN: 'xoxb-main-test',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    child = started.child;
    const url = await listeningUrl(started.child, started.output);
    const response = await post(url, buildUrlVerification(), 'not-the-secret');
    expect(response.status).toBe(401);
    await outputContains(started.child, started.output, 'signature_rejected');
    await outputContains(started.child, started.output, '"reason":"mismatch"');
  });

  it('calls the Web API at SLACK_API_URL, so it runs offline against a fake Slack', async () => {
    fake = await startFakeSlackApi();
    const started = spawnMain({
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_BOT_TOKEN: 'xoxb-main-test',
      SLACK_API_URL: fake.url,
      HOST: '127.0.0.1',
      PORT: '0',
    });
    child = started.child;
    const url = await listeningUrl(started.child, started.output);
    expect((await post(url, buildAppMentionEvent({ text: '<@U0BOT> hi' }))).status).toBe(200);
    const [reaction] = await fake.waitForCalls('reactions.add');
    expect(reaction?.args).toMatchObject({ name: 'eyes' });
  });
});
