import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('../test-support/keep-alive-fixture.ts', import.meta.url));

describe('parked work keeps the process alive', () => {
  it.each([
    ['burst', 'burst handled=1 outcomes=completed,completed'],
    ['queue', 'queue handled=1 outcomes=superseded,completed'],
    ['debounce', 'debounce handled=1 outcomes=superseded,completed'],
  ])('a process whose only pending work is a %s waiter finishes it', async (strategy, expected) => {
    const { stdout } = await run(
      process.execPath,
      ['--conditions=@rt/source', '--import', 'tsx', fixture, strategy],
      { timeout: 15_000 },
    );
    expect(stdout.trim()).toBe(expected);
  });
});
