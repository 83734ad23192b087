import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisState } from './redis-state.js';
import { provideRedisUrl } from './test-support/redis-server.js';

/** Live handles of the kinds a Redis client could leave behind. */
function handleCounts() {
  const counts = { sockets: 0, timers: 0 };
  for (const resource of process.getActiveResourcesInfo()) {
    if (resource.startsWith('TCP')) counts.sockets += 1;
    if (resource === 'Timeout') counts.timers += 1;
  }
  return counts;
}

describe('redis state lifecycle', () => {
  let redis: Awaited<ReturnType<typeof provideRedisUrl>>;

  beforeAll(async () => {
    redis = await provideRedisUrl();
  });
  afterAll(async () => {
    await redis?.release();
  });

  it('leaves no socket or timer behind after close, wake-up subscriber included', async () => {
    const before = handleCounts();
    const state = createRedisState({ url: redis.url });
    const name = `lifecycle:${randomUUID()}`;
    await state.markEvent(name, 60_000);
    const lease = await state.acquireLock(name, 60_000);
    const waiting = state.waitForRelease(name, 60_000, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await state.releaseLock(lease!);
    await waiting;
    expect(handleCounts().sockets).toBeGreaterThan(before.sockets);
    await state.close();
    await new Promise((resolve) => setImmediate(resolve));
    const after = handleCounts();
    expect(after.sockets).toBe(before.sockets);
    expect(after.timers).toBeLessThanOrEqual(before.timers);
  });

  it('leaves a caller-owned client open on close and rejects later operations', async () => {
    const client = new Redis(redis.url);
    try {
      const state = createRedisState({ client, prefix: 'owned:' });
      const name = `lifecycle:${randomUUID()}`;
      expect(await state.markEvent(name, 60_000)).toBe(true);
      expect(await client.exists(`owned:{${name}}:mark`)).toBe(1);
      await state.close();
      await state.close();
      expect(client.status).toBe('ready');
      expect(await client.ping()).toBe('PONG');
      await expect(state.markEvent(name, 60_000)).rejects.toMatchObject({
        name: 'StateClosedError',
        code: 'RT_STATE_UNAVAILABLE',
      });
    } finally {
      client.disconnect();
    }
  });

  it('rejects parked waiters with StateClosedError when closed', async () => {
    const state = createRedisState({ url: redis.url });
    const name = `lifecycle:${randomUUID()}`;
    await state.acquireLock(name, 60_000);
    const waiting = state.waitForRelease(name, 60_000, new AbortController().signal);
    const outcome = expect(waiting).rejects.toMatchObject({ name: 'StateClosedError' });
    await state.close();
    await outcome;
  });

  it('validates its options', () => {
    const client = new Redis({ lazyConnect: true });
    expect(() => createRedisState({} as never)).toThrow(TypeError);
    expect(() => createRedisState({ url: redis.url, client } as never)).toThrow(/exactly one/);
    expect(() => createRedisState({ url: 'http://localhost' })).toThrow(/redis:\/\//);
    expect(() => createRedisState({ client: {} as never })).toThrow(/ioredis/);
    expect(() => createRedisState({ client, prefix: 'a{b}' })).toThrow(/prefix/);
    expect(() => createRedisState({ client, commandTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => createRedisState({ client, fenceRetentionMs: 1.5 })).toThrow(/fenceRetentionMs/);
    client.disconnect();
  });
});
