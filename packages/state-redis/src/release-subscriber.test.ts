import { randomUUID } from 'node:crypto';
import { ReleaseWaiters } from '@rt/core/state';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisState, type RedisState } from './redis-state.js';
import { ReleaseSubscriber } from './release-subscriber.js';
import { adminClient, serverClients, subscriberCount, until } from './test-support/redis-admin.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

const WAKEUPS = 'rt-state-wakeups';

describe('release wake-ups when the subscriber connection is lost', () => {
  let server: PrivateRedisServer;
  let admin: Redis;
  const states: RedisState[] = [];
  const clients: Redis[] = [];

  /** Ids of the wake-up subscriber connections the server has now. */
  const subscriberIds = async () => (await serverClients(admin, WAKEUPS)).map((c) => c.id);

  beforeAll(async () => {
    server = await startRedisServer();
    admin = adminClient(server.url);
  });
  afterEach(async () => {
    await Promise.all(states.splice(0).map((state) => state.close()));
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.dispose();
  });

  it('resubscribes after its connection is killed, so a waiter is still woken by a release', async () => {
    const prefix = `wake-${randomUUID().slice(0, 8)}:`;
    const waiter = createRedisState({ url: server.url, prefix, maxReconnectDelayMs: 50 });
    const holder = createRedisState({ url: server.url, prefix });
    states.push(waiter, holder);
    const lock = `wake:${randomUUID()}`;
    const lease = await holder.acquireLock(lock, 60_000);
    // Neither the timeout nor the lease's lapse can end this wait within the test.
    const waiting = waiter.waitForRelease(lock, 60_000, new AbortController().signal);
    await until(async () => (await subscriberCount(admin, `${prefix}lock-released`)) === 1);
    const [before] = await subscriberIds();

    expect(Number(await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub'))).toBe(1);
    await until(async () => {
      const ids = await subscriberIds();
      return ids.length === 1 && ids[0] !== before;
    });
    await until(async () => (await subscriberCount(admin, `${prefix}lock-released`)) === 1);

    expect(await holder.releaseLock(lease!)).toBe(true);
    await waiting;
  });

  it('opens a new subscriber connection once the old one has ended for good', async () => {
    const channel = `released-${randomUUID()}`;
    // A source whose duplicates never reconnect: a killed subscriber ends for good.
    const source = new Redis(server.url, { lazyConnect: true, retryStrategy: () => null });
    clients.push(source);
    const waiters = new ReleaseWaiters();
    const subscriber = new ReleaseSubscriber(source, channel, waiters);
    try {
      expect(await subscriber.subscribed()).toBe(true);
      const [first] = await subscriberIds();
      expect(Number(await admin.client('KILL', 'ID', first!))).toBe(1);

      // Each wait asks for the subscription; once the old connection ended, a new one is made.
      await until(async () => {
        await subscriber.subscribed();
        const ids = await subscriberIds();
        return ids.length === 1 && ids[0] !== first;
      });
      expect(await subscriber.subscribed()).toBe(true);
      const woken = waiters.wait('k', 60_000, new AbortController().signal);
      await admin.publish(channel, 'k');
      await woken;
      expect(source.status).toBe('wait');
    } finally {
      await subscriber.close(1000);
    }
    expect(await subscriber.subscribed()).toBe(false);
    expect(await subscriberIds()).toEqual([]);
  });
});
