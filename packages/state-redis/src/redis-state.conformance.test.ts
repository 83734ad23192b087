import { runStateConformance } from '@rt/testing/state';
import { afterAll, beforeAll } from 'vitest';
import { createRedisState } from './redis-state.js';
import { provideRedisUrl } from './test-support/redis-server.js';

let redis: Awaited<ReturnType<typeof provideRedisUrl>>;
beforeAll(async () => {
  redis = await provideRedisUrl();
});
afterAll(async () => {
  await redis?.release();
});

runStateConformance('redis state (own client)', () => createRedisState({ url: redis.url }), {
  lockWakeups: true,
  multiKeyMark: true,
  subscriptions: true,
  threadState: true,
  shortTtlMs: 150,
});
