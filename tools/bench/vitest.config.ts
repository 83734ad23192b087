import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// The smoke runs every benchmark at tiny sizes in child processes: slow, never timed.
export default mergeConfig(sharedConfig, defineConfig({ test: { testTimeout: 240_000 } }));
