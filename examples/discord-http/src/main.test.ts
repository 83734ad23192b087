import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildPing, createDiscordSigner } from '@rt/testing/discord';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
// An empty working directory, so a developer's own .env cannot leak into the test.
const cwd = mkdtempSync(join(tmpdir(), 'rt-example-discord-main-'));

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
      const match = /listening on (http:\/\/[^\s]+\/interactions)/.exec(output());
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

describe('src/main.ts', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });
  afterAll(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  it('answers a signed PING over HTTP and exits 0 after draining on SIGTERM', async () => {
    const signer = createDiscordSigner();
    const started = spawnMain({
      DISCORD_PUBLIC_KEY: signer.publicKey,
      DISCORD_APPLICATION_ID: '100000000000000001',
      DISCORD_BOT_TOKEN: 'main-test-token',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    child = started.child;
    const url = await listeningUrl(started.child, started.output);
    const request = signer.request(buildPing(), { url });
    const response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: await request.text(),
    });
    expect(await response.json()).toEqual({ type: 1 });

    const exited = once(started.child, 'exit');
    started.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(started.output()).toContain('SIGTERM: shutting down');
    expect(started.output()).toContain('stopped');
  });

  it('refuses to start without its Discord credentials, naming the missing variable', async () => {
    const started = spawnMain({ HOST: '127.0.0.1', PORT: '0' });
    child = started.child;
    const [code] = await once(started.child, 'exit');
    expect(code).not.toBe(0);
    expect(started.output()).toContain('DISCORD_PUBLIC_KEY is not set');
  });
});
