import { randomUUID } from 'node:crypto';
import { runStateConformance } from '@rt/testing/state';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisState } from './redis-state.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

// A one-node Redis Cluster still refuses scripts whose keys span slots (CROSSSLOT), so this proves
// the key layout keeps each lock's keys together.
let server: PrivateRedisServer;
let cluster: Cluster;

beforeAll(async () => {
  server = await startRedisServer({ cluster: true });
  // ioredis cannot load a cluster's slot map with `enableOfflineQueue: false`, so this client keeps
  // the default; the State still never hands it a command while it is not ready.
  cluster = new Cluster([{ host: '127.0.0.1', port: server.port }], {
    redisOptions: { maxRetriesPerRequest: 0 },
  });
  await new Promise<void>((resolve, reject) => {
    cluster.once('ready', resolve);
    cluster.once('error', reject);
  });
});

afterAll(async () => {
  cluster?.disconnect();
  await server?.dispose();
});

runStateConformance(
  'redis state on a Redis Cluster client',
  () => createRedisState({ client: cluster }),
  {
    lockWakeups: true,
  },
);

describe('redis state on a Redis Cluster client', () => {
  it('refuses a cross-slot script, so the passing suite above really ran under cluster rules', async () => {
    const error = await cluster
      .eval(
        "return redis.call('EXISTS', KEYS[1], KEYS[2])",
        2,
        `a-${randomUUID()}`,
        `b-${randomUUID()}`,
      )
      .catch((reason: unknown) => reason);
    expect(String(error)).toMatch(/CROSSSLOT/);
  });
});
