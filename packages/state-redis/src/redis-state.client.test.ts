import { randomUUID } from 'node:crypto';
import { StateUnavailableError } from '@rt/core';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardClient } from './connection.js';
import { keyLayout } from './key-layout.js';
import { RESERVED_REDIS_OPTIONS } from './options.js';
import { createRedisState, type RedisState } from './redis-state.js';
import { provideRedisUrl } from './test-support/redis-server.js';

const key = (label: string) => `client:${randomUUID()}:${label}`;

describe("redis state's own connection", () => {
  let redis: Awaited<ReturnType<typeof provideRedisUrl>>;
  const states: RedisState[] = [];
  const clients: Redis[] = [];
  const track = (client: Redis) => {
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    redis = await provideRedisUrl();
  });
  afterEach(async () => {
    await Promise.all(states.splice(0).map((state) => state.close()));
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    await redis?.release();
  });

  it("runs on a fail-fast duplicate of the caller's client, whatever the client's own settings", async () => {
    const client = track(
      new Redis(redis.url, {
        enableOfflineQueue: true,
        maxRetriesPerRequest: 20,
        autoResendUnfulfilledCommands: true,
        reconnectOnError: () => 2,
        retryStrategy: () => null,
      }),
    );
    const state = createRedisState({ client, commandTimeoutMs: 700, connectTimeoutMs: 900 });
    states.push(state);
    expect(state.client).not.toBe(client);
    const own = (state.client as Redis).options;
    expect(own).toMatchObject({
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      reconnectOnError: null,
      lazyConnect: false,
      commandTimeout: 700,
      connectTimeout: 900,
      connectionName: 'rt-state',
    });
    expect(own.retryStrategy!(1_000)).toBe(2000); // reconnects forever, capped
    expect(own.port).toBe(client.options.port);

    const name = key('mark');
    expect(await state.markEvent(name, 60_000)).toBe(true);
    expect(await client.exists(keyLayout('rt:').markKey(name))).toBe(1);
    await state.close();
    expect(state.client.status).toBe('end');
    expect(client.status).toBe('ready');
  });

  it('works from a caller client that was never connected (lazyConnect), and leaves it so', async () => {
    const client = track(new Redis(redis.url, { lazyConnect: true }));
    const state = createRedisState({ client });
    states.push(state);
    expect(await state.markEvent(key('lazy'), 60_000)).toBe(true);
    const lease = await state.acquireLock(key('lazy-lock'), 60_000);
    expect(await state.releaseLock(lease!)).toBe(true);
    expect(client.status).toBe('wait');
  });

  it('applies redisOptions from a URL, under the fail-fast settings', async () => {
    const state = createRedisState({
      url: redis.url,
      redisOptions: { db: 3, enableAutoPipelining: true },
    });
    states.push(state);
    expect((state.client as Redis).options).toMatchObject({
      db: 3,
      enableAutoPipelining: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const name = key('db3');
    expect(await state.markEvent(name, 60_000)).toBe(true);
    const db3 = track(new Redis(redis.url, { db: 3 }));
    const db0 = track(new Redis(redis.url));
    const markKey = keyLayout('rt:').markKey(name);
    expect([await db3.exists(markKey), await db0.exists(markKey)]).toEqual([1, 0]);
  });

  it.each(RESERVED_REDIS_OPTIONS)(
    'refuses redisOptions.%s, which would undo or duplicate its own settings',
    (name) => {
      const make = () =>
        createRedisState({ url: redis.url, redisOptions: { [name]: undefined } as never });
      expect(make).toThrow(TypeError);
      expect(make).toThrow(`options.redisOptions.${name}`);
    },
  );

  it('refuses redisOptions together with a client', () => {
    const client = track(new Redis(redis.url, { lazyConnect: true }));
    expect(() => createRedisState({ client, redisOptions: { db: 1 } } as never)).toThrow(
      /options\.redisOptions is for options\.url only/,
    );
  });

  it('connects a client still waiting for connect() within the first operation', async () => {
    const client = new Redis(redis.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const connection = guardClient(client, 1000);
    try {
      expect(client.status).toBe('wait');
      expect(await connection.run('ping', (c) => c.ping())).toBe('PONG');
    } finally {
      await connection.close();
    }
    expect(client.status).toBe('end');
  });

  it('rejects with StateUnavailableError within its budget when a lazy connect fails', async () => {
    const client = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 50,
    });
    const connection = guardClient(client, 200);
    try {
      await expect(connection.run('ping', (c) => c.ping())).rejects.toBeInstanceOf(
        StateUnavailableError,
      );
    } finally {
      await connection.close();
    }
  });
});
