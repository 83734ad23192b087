/**
 * The process behaviour a terminal and a supervisor expect, through the documented command
 * (`pnpm start`): stopped in each way while the script's last handler runs, the bot lets it
 * finish, flushes its telemetry and exits 0, leaving no process behind.
 */
import { fileURLToPath } from 'node:url';
import {
  type ExampleProcess,
  STOP_SCENARIOS,
  startExample,
} from '@rt/example-shared/example-process';
import { afterEach, describe, expect, it } from 'vitest';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('pnpm start under signals', () => {
  let example: ExampleProcess | undefined;
  afterEach(() => {
    example?.kill();
    example = undefined;
  });

  for (const scenario of STOP_SCENARIOS) {
    it(`finishes the running handler and exits 0: ${scenario.name}`, async () => {
      example = startExample({ dir: EXAMPLE_DIR, env: {} });
      await example.waitFor('thinking for');
      await scenario.stop(example);
      expect(await example.exited()).toBe(0);
      const output = example.output();
      expect(output).toContain('done thinking');
      expect(output).toMatch(/done: \d+ completed/);
      // Telemetry was flushed at shutdown: the metrics print once, at the end.
      expect(output).toContain('rt.deliveries.finished');
      expect(example.groupAlive()).toBe(false);
    });
  }

  it('runs its script to the end and exits 0 when nobody stops it', async () => {
    example = startExample({ dir: EXAMPLE_DIR, env: {} });
    expect(await example.exited()).toBe(0);
    expect(example.output()).toContain('done thinking');
    expect(example.output()).toMatch(/done: \d+ completed, 4 rejected by admission/);
    expect(example.output()).not.toContain('shutting down');
  });
});
