import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { shutdownOnSignals } from './signals.js';

const FIXTURE = fileURLToPath(new URL('./test-fixtures/signals-fixture.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The fixture as a child process, its output collected. */
function start(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', TSX, FIXTURE], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.includes(text)) {
          waiters.delete(check);
          resolve();
        } else if (child.exitCode !== null) {
          waiters.delete(check);
          reject(new Error(`exited before ${JSON.stringify(text)}:\n${output}`));
        }
      };
      waiters.add(check);
      child.once('exit', check);
      check();
    });
  return { child, waitFor, output: () => output };
}

describe('shutdownOnSignals', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('shuts down once on the first signal, logs and ignores repeats, and exits 0 when done', async () => {
    const fixture = start();
    child = fixture.child;
    await fixture.waitFor('ready');
    fixture.child.kill('SIGINT');
    await fixture.waitFor('SIGINT: shutting down');
    fixture.child.kill('SIGINT');
    await fixture.waitFor('SIGINT: already shutting down, ignored');
    fixture.child.kill('SIGTERM');
    await fixture.waitFor('SIGTERM: already shutting down, ignored');
    const exited = once(fixture.child, 'exit');
    fixture.child.stdin?.end('finish\n');
    expect(await exited).toEqual([0, null]);
    expect(fixture.output().match(/shutting down$/gm)).toHaveLength(1);
  });

  it('exits 1 when the shutdown fails', async () => {
    const fixture = start();
    child = fixture.child;
    await fixture.waitFor('ready');
    fixture.child.kill('SIGTERM');
    await fixture.waitFor('SIGTERM: shutting down');
    const exited = once(fixture.child, 'exit');
    fixture.child.stdin?.end('fail\n');
    expect(await exited).toEqual([1, null]);
    expect(fixture.output()).toContain('shutdown failed');
  });

  it('exits at once on a signal after the shutdown finished, with the exit code so far', async () => {
    const fixture = start({ LINGER: '1' });
    child = fixture.child;
    await fixture.waitFor('ready (lingering)');
    fixture.child.kill('SIGINT');
    await fixture.waitFor('SIGINT: shutting down');
    fixture.child.stdin?.write('finish\n');
    await fixture.waitFor('shutdown over');
    const exited = once(fixture.child, 'exit');
    fixture.child.kill('SIGINT');
    expect(await exited).toEqual([0, null]);
    expect(fixture.output()).toContain('SIGINT: stopped, exiting now');
  });

  it('rejects a shutdown that is not a function, and removes its listeners', () => {
    expect(() => shutdownOnSignals(undefined as never)).toThrow(TypeError);
    const before = process.listenerCount('SIGUSR2');
    const remove = shutdownOnSignals(async () => {}, { signals: ['SIGUSR2'], log: () => {} });
    expect(process.listenerCount('SIGUSR2')).toBe(before + 1);
    remove();
    expect(process.listenerCount('SIGUSR2')).toBe(before);
  });
});
