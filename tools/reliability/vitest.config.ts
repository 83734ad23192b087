import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

const long = process.env.RT_RELIABILITY_LONG === '1';

/**
 * Floods, Redis faults and child processes: one file at a time (so the 2-core CI machine never
 * runs two floods against each other), in forks. The long variant (`pnpm --filter @rt/reliability
 * long`) gets ten minutes per test.
 */
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      testTimeout: long ? 600_000 : 60_000,
      hookTimeout: 30_000,
      pool: 'forks',
      fileParallelism: false,
    },
  }),
);
