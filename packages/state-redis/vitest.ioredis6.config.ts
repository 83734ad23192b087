import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

/**
 * The State on the other ioredis major the peer range admits (`^5 || ^6`): the workspace installs
 * ioredis 5 as `ioredis` and 6 as `ioredis6`, and this run resolves every `ioredis` import to 6
 * (`src/ioredis-major.test.ts` proves it did). A focused set (the State contract, the client
 * option, cluster, lifecycle, connection faults, the release channel and a real runtime) keeps CI
 * short; `pnpm test` runs it after the full suite on 5.
 */
const config = mergeConfig(
  sharedConfig,
  defineConfig({
    resolve: {
      alias: { ioredis: fileURLToPath(new URL('./node_modules/ioredis6', import.meta.url)) },
    },
    test: { env: { IOREDIS_MAJOR: '6' } },
  }),
);
// Replaced, not merged: mergeConfig would append these to the shared include.
config.test = {
  ...config.test,
  include: [
    'src/ioredis-major.test.ts',
    'src/redis-state.conformance.test.ts',
    'src/redis-state.client.test.ts',
    'src/redis-state.cluster.test.ts',
    'src/redis-state.lifecycle.test.ts',
    'src/redis-state.fault.test.ts',
    'src/release-subscriber.test.ts',
    'src/redis-state.runtime.test.ts',
  ],
};
export default config;
