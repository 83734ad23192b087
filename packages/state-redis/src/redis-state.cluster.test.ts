import { randomUUID } from 'node:crypto';
import { StateUnavailableError } from '@rt/core';
import { installationMarkKey } from '@rt/core/state';
import { runStateConformance } from '@rt/testing/state';
import { Cluster, type Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyLayout } from './key-layout.js';
import { STATE_CONNECTION_NAME } from './own-client.js';
import { createRedisState, type RedisState } from './redis-state.js';
import {
  adminClient,
  blockedClients,
  killClientsNamed,
  pauseWrites,
  until,
} from './test-support/redis-admin.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

// A one-node Redis Cluster still refuses scripts whose keys span slots (CROSSSLOT), so this proves
// the key layout keeps each lock's keys together.
let server: PrivateRedisServer;
let cluster: Cluster;

/** A cluster client with ioredis defaults, ready. */
async function readyCluster(): Promise<Cluster> {
  const client = new Cluster([{ host: '127.0.0.1', port: server.port }]);
  // Transient errors while the slot map loads are retried by the client; the hook timeout bounds it.
  client.on('error', () => undefined);
  await new Promise<void>((resolve) => client.once('ready', () => resolve()));
  return client;
}

beforeAll(async () => {
  server = await startRedisServer({ cluster: true });
  cluster = await readyCluster();
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
    multiKeyMark: true,
    subscriptions: true,
    threadState: true,
    shortTtlMs: 150,
  },
);

describe('redis state on a Redis Cluster client', () => {
  let admin: Redis;
  let state: RedisState | undefined;
  beforeAll(() => {
    admin = adminClient(server.url);
  });
  afterEach(async () => {
    await admin.client('UNPAUSE');
    await state?.close();
    state = undefined;
  });
  afterAll(() => admin?.disconnect());

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

  it("runs on a fail-fast duplicate of the caller's cluster client", async () => {
    state = createRedisState({ client: cluster, commandTimeoutMs: 700 });
    const own = state.client as Cluster;
    expect(own).not.toBe(cluster);
    expect(own.isCluster).toBe(true);
    expect(own.options).toMatchObject({
      enableOfflineQueue: false,
      lazyConnect: false,
      retryDelayOnFailover: 0,
      retryDelayOnClusterDown: 0,
      retryDelayOnTryAgain: 0,
      redisOptions: {
        connectionName: STATE_CONNECTION_NAME,
        maxRetriesPerRequest: 0,
        autoResendUnfulfilledCommands: false,
        reconnectOnError: null,
        commandTimeout: 700,
      },
    });
    expect(await state.markEvent(`cluster:${randomUUID()}`, 60_000)).toBe(true);
    await state.close();
    expect(cluster.status).toBe('ready');
  });

  it('never applies a markEvent that failed when its node connection dropped', async () => {
    state = createRedisState({ client: cluster, maxReconnectDelayMs: 50 });
    const live = state;
    const name = `cluster:${randomUUID()}:dropped-mark`;
    expect(await live.markEvent(`cluster:${randomUUID()}`, 60_000)).toBe(true);

    await pauseWrites(admin);
    // The handler is attached at once: the rejection may come while the test is still killing.
    const markingFails = expect(live.markEvent(name, 60_000)).rejects.toBeInstanceOf(
      StateUnavailableError,
    );
    await until(async () => (await blockedClients(admin, STATE_CONNECTION_NAME)).length > 0);
    expect(await killClientsNamed(admin, STATE_CONNECTION_NAME)).toBeGreaterThan(0);
    await markingFails;
    await admin.client('UNPAUSE');

    // Once the cluster client has recovered, the failed mark is still absent.
    await until(() =>
      live.markEvent(`cluster:${randomUUID()}`, 60_000).then(
        () => true,
        () => false,
      ),
    );
    expect(await admin.exists(keyLayout('rt:').markKey(name))).toBe(0);
    expect(await live.markEvent(name, 60_000)).toBe(true);
  });

  it('marks the keys of one installation in one script, all in one slot', async () => {
    state = createRedisState({ client: cluster });
    const tenant = randomUUID();
    const keys = ['Ev1', 'Ev2', 'C1/1.1'].map((id, index) =>
      installationMarkKey(index < 2 ? 'event' : 'message', 'slack', tenant, id),
    );
    const slots = new Set(
      await Promise.all(
        keys.map(
          (key) => admin.cluster('KEYSLOT', keyLayout('rt:').markKey(key)) as Promise<number>,
        ),
      ),
    );
    expect(slots.size).toBe(1);
    expect(await state.markEvents(keys, 60_000)).toBe(true);
    expect(
      await state.markEvents(
        [keys[2]!, installationMarkKey('event', 'slack', tenant, 'Ev3')],
        60_000,
      ),
    ).toBe(false);
    expect(await state.markEvent(keys[1]!, 60_000)).toBe(false);
  });

  it('never applies any key of a markEvents that failed when its node connection dropped', async () => {
    state = createRedisState({ client: cluster, maxReconnectDelayMs: 50 });
    const live = state;
    const tenant = randomUUID();
    const keys = ['Ev1', 'C1/1.1'].map((id) => installationMarkKey('event', 'slack', tenant, id));
    expect(await live.markEvent(`cluster:${randomUUID()}`, 60_000)).toBe(true);

    await pauseWrites(admin);
    // The handler is attached at once: the rejection may come while the test is still killing.
    const markingFails = expect(live.markEvents(keys, 60_000)).rejects.toBeInstanceOf(
      StateUnavailableError,
    );
    await until(async () => (await blockedClients(admin, STATE_CONNECTION_NAME)).length > 0);
    expect(await killClientsNamed(admin, STATE_CONNECTION_NAME)).toBeGreaterThan(0);
    await markingFails;
    await admin.client('UNPAUSE');

    // Once the cluster client has recovered, none of the failed marks is there.
    await until(() =>
      live.markEvent(`cluster:${randomUUID()}`, 60_000).then(
        () => true,
        () => false,
      ),
    );
    expect(await admin.exists(...keys.map((key) => keyLayout('rt:').markKey(key)))).toBe(0);
    expect(await live.markEvents(keys, 60_000)).toBe(true);
  });
});
