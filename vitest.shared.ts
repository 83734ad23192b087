import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Shared vitest configuration: workspace packages resolve to their TypeScript sources through the
 * `@rt/source` export condition, so tests never need a prior build; `vitest.setup.ts` makes an
 * unhandled promise rejection fail the test it happened in, in every package.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@rt/source', 'import', 'module', 'node', 'default'] },
  ssr: {
    resolve: {
      conditions: ['@rt/source', 'import', 'node', 'default'],
      externalConditions: ['@rt/source'],
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: [fileURLToPath(new URL('./vitest.setup.ts', import.meta.url))],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
