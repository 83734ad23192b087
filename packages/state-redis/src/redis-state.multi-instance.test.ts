import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisState, type RedisState } from './redis-state.js';
import { provideRedisUrl } from './test-support/redis-server.js';

describe('two redis states sharing one Redis', () => {
  let redis: Awaited<ReturnType<typeof provideRedisUrl>>;
  let opened: RedisState[] = [];
  const open = (prefix = 'rt:') => {
    const state = createRedisState({ url: redis.url, prefix });
    opened.push(state);
    return state;
  };
  const key = (label: string) => `multi:${randomUUID()}:${label}`;

  beforeAll(async () => {
    redis = await provideRedisUrl();
  });
  afterEach(async () => {
    await Promise.all(opened.map((state) => state.close()));
    opened = [];
  });
  afterAll(async () => {
    await redis?.release();
  });

  it('accepts an event marked by both instances at once exactly once', async () => {
    const [a, b] = [open(), open()];
    for (let round = 0; round < 20; round += 1) {
      const event = key(`event-${round}`);
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => a.markEvent(event, 60_000)),
        ...Array.from({ length: 5 }, () => b.markEvent(event, 60_000)),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
    }
  });

  it('grants a lock to exactly one instance when both race for it', async () => {
    const [a, b] = [open(), open()];
    for (let round = 0; round < 20; round += 1) {
      const lock = key(`lock-${round}`);
      const leases = await Promise.all([
        ...Array.from({ length: 5 }, () => a.acquireLock(lock, 60_000)),
        ...Array.from({ length: 5 }, () => b.acquireLock(lock, 60_000)),
      ]);
      expect(leases.filter((lease) => lease !== null)).toHaveLength(1);
    }
  });

  it('lets the other instance take the lock once the holder releases it, with a higher fence', async () => {
    const [a, b] = [open(), open()];
    const lock = key('handover');
    const first = await a.acquireLock(lock, 60_000);
    expect(await b.acquireLock(lock, 60_000)).toBeNull();
    expect(await b.releaseLock(first!)).toBe(true); // the token, not the instance, owns the lease
    const second = await b.acquireLock(lock, 60_000);
    expect(second!.fence).toBeGreaterThan(first!.fence);
    expect(await a.renewLock(first!, 60_000)).toBe(false);
  });

  it('wakes a waiter on one instance when the other releases the lock', async () => {
    const [a, b] = [open(), open()];
    const lock = key('wake');
    const lease = await a.acquireLock(lock, 60_000);
    const waiting = b.waitForRelease(lock, 60_000, new AbortController().signal);
    let woke = false;
    void waiting.then(() => {
      woke = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(woke).toBe(false);
    await a.releaseLock(lease!);
    await waiting;
    expect(await b.acquireLock(lock, 60_000)).not.toBeNull();
  });

  it('works the same through a caller-owned client as through a URL', async () => {
    const client = new Redis(redis.url);
    try {
      const shared = createRedisState({ client });
      opened.push(shared);
      const own = open();
      const event = key('client-event');
      expect(await own.markEvent(event, 60_000)).toBe(true);
      expect(await shared.markEvent(event, 60_000)).toBe(false);
      const lease = await shared.acquireLock(event, 60_000);
      expect(await own.acquireLock(event, 60_000)).toBeNull();
      expect(await own.releaseLock(lease!)).toBe(true);
    } finally {
      client.disconnect();
    }
  });

  it('keeps States with different prefixes apart', async () => {
    const [a, b] = [open('app-a:'), open('app-b:')];
    const event = key('prefixed');
    expect(await a.markEvent(event, 60_000)).toBe(true);
    expect(await b.markEvent(event, 60_000)).toBe(true);
    expect(await a.acquireLock(event, 60_000)).not.toBeNull();
    expect(await b.acquireLock(event, 60_000)).not.toBeNull();
  });
});
