import { defineConfig } from 'vitest/config';

/**
 * Shared vitest configuration: workspace packages resolve to their TypeScript sources through the
 * `@rt/source` export condition, so tests never need a prior build.
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
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
