import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

/**
 * Floods, Redis faults and child processes: each file runs alone (one fork at a time, so the
 * 2-core CI machine never runs two floods against each other) and gets a minute per test.
 */
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      testTimeout: 60_000,
      hookTimeout: 30_000,
      pool: 'forks',
      fileParallelism: false,
    },
  }),
);
