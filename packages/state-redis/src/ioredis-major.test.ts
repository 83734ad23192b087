import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';

/**
 * Which ioredis major this run tests: `IOREDIS_MAJOR` (set by the `test` script for the second
 * run, `vitest.ioredis6.config.ts`) must be the major the `ioredis` import really resolved to, so
 * the ioredis 6 run cannot quietly test 5.
 */
it('runs against the ioredis major the test script names', () => {
  const major = process.env.IOREDIS_MAJOR ?? '5';
  const name = major === '5' ? 'ioredis' : `ioredis${major}`;
  const require = createRequire(import.meta.url);
  const { version } = require(`${name}/package.json`) as { version: string };
  expect(version.split('.')[0]).toBe(major);
  expect(Redis).toBe((require(name) as { Redis: unknown }).Redis);
});
