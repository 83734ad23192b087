import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

/** Packing, a registry install and two compilations: minutes, not seconds, on a small machine. */
export default mergeConfig(
  sharedConfig,
  defineConfig({ test: { testTimeout: 240_000, hookTimeout: 240_000 } }),
);
