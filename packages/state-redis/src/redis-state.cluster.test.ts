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
  cluster = new Cluster([{ host: '127.0.0.1', port: server.port }], {
    enableOfflineQueue: false,
    redisOptions: { maxRetriesPerRequest: 0 },
  });
  // Transient errors while the slot map loads are retried by the client; the hook timeout bounds it.
  cluster.on('error', () => undefined);
  await new Promise<void>((resolve) => cluster.once('ready', () => resolve()));
});

afterAll(async () => {
  cluster?.disconnect();
  await server?.dispose();
});

runStateConformance(
  'redis state on a Redis Cluster client',
  () => createRedisState({ client: cluster }),
  { lockWakeups: true, shortTtlMs: 150 },
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
