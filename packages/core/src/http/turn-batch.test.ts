import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runQueuedNow, runThisTurn, type TurnTask } from './turn-batch.js';

const run = promisify(execFile);
const exitFixture = fileURLToPath(
  new URL('../test-support/turn-batch-exit-fixture.ts', import.meta.url),
);

/** A task that records what it ran with. */
function recorder(): TurnTask<string, number, undefined> & { readonly ran: string[] } {
  const ran: string[] = [];
  return { ran, run: (a, b) => ran.push(`${a}${b}`) };
}

/** Resolves after the current turn's check phase (an immediate queued after the batch's). */
function afterThisTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('runThisTurn', () => {
  it('runs what one turn queued together on its check phase, in order, after its microtasks', async () => {
    const task = recorder();
    runThisTurn(task, 'a', 1, undefined);
    await Promise.resolve();
    runThisTurn(task, 'b', 2, undefined);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(task.ran).toEqual([]);
    await afterThisTurn();
    expect(task.ran).toEqual(['a1', 'b2']);
  });

  it('runs what is queued while the batch runs on the next turn', async () => {
    const ran: string[] = [];
    const late = { run: (a: string) => ran.push(a) };
    const early = {
      run: (a: string) => {
        ran.push(a);
        runThisTurn(late, 'late', undefined, undefined);
      },
    };
    runThisTurn(early, 'early', undefined, undefined);
    await afterThisTurn();
    expect(ran).toEqual(['early']);
    await afterThisTurn();
    expect(ran).toEqual(['early', 'late']);
  });

  it('is not held back by fake timers (the real setImmediate, read at load)', async () => {
    vi.useFakeTimers();
    const task = recorder();
    runThisTurn(task, 'a', 1, undefined);
    vi.useRealTimers();
    await afterThisTurn();
    expect(task.ran).toEqual(['a1']);
  });

  it('runs every item when one throws, then throws the first error', async () => {
    const task = recorder();
    const broken = {
      run: () => {
        throw new Error('a bug');
      },
    };
    runThisTurn(task, 'a', 1, undefined);
    runThisTurn(broken, undefined, undefined, undefined);
    runThisTurn(task, 'b', 2, undefined);
    expect(() => runQueuedNow()).toThrow('a bug');
    expect(task.ran).toEqual(['a1', 'b2']);
    await afterThisTurn(); // the turn's own run finds nothing left
    expect(task.ran).toEqual(['a1', 'b2']);
  });

  it('runs what is still queued when the process exits before the turn ends', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--conditions=@rt/source', '--import', 'tsx', exitFixture],
      { timeout: 15_000 },
    );
    expect(stdout).toBe('first\nsecond\n');
  });
});
