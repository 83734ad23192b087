import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyLayout } from './key-layout.js';
import { createRedisState, type RedisState } from './redis-state.js';
import { provideRedisUrl } from './test-support/redis-server.js';

describe('redis state when a lease is lost under its holder', () => {
  const layout = keyLayout('rt:');
  let redis: Awaited<ReturnType<typeof provideRedisUrl>>;
  let admin: Redis;
  let holder: RedisState;
  let rival: RedisState;
  const key = (label: string) => `lease-loss:${randomUUID()}:${label}`;

  beforeAll(async () => {
    redis = await provideRedisUrl();
    admin = new Redis(redis.url);
  });
  afterEach(async () => {
    await Promise.all([holder?.close(), rival?.close()]);
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.release();
  });

  const openBoth = () => {
    holder = createRedisState({ url: redis.url });
    rival = createRedisState({ url: redis.url });
  };

  it('reports false on renew once the lease was expired from outside', async () => {
    openBoth();
    const lock = key('pexpire');
    const lease = await holder.acquireLock(lock, 60_000);
    expect(await admin.pexpire(layout.lockKey(lock), 1)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await holder.renewLock(lease!, 60_000)).toBe(false);
  });

  it("keeps the old holder from releasing or renewing its successor's lock after a DEL", async () => {
    openBoth();
    const lock = key('del');
    const old = await holder.acquireLock(lock, 60_000);
    expect(await admin.del(layout.lockKey(lock))).toBe(1);
    const successor = await rival.acquireLock(lock, 60_000);
    expect(successor).not.toBeNull();
    expect(successor!.fence).toBeGreaterThan(old!.fence);
    expect(await holder.releaseLock(old!)).toBe(false);
    expect(await holder.renewLock(old!, 60_000)).toBe(false);
    expect(await admin.get(layout.lockKey(lock))).toBe(successor!.token);
    expect(await rival.releaseLock(successor!)).toBe(true);
  });

  it('keeps raising the fence after the fence key itself was deleted', async () => {
    openBoth();
    const lock = key('fence-gone');
    const first = await holder.acquireLock(lock, 60_000);
    await holder.releaseLock(first!);
    await admin.del(layout.fenceKey(lock));
    const second = await rival.acquireLock(lock, 60_000);
    expect(second!.fence).toBeGreaterThan(first!.fence);
  });

  it('gives the fence key a TTL of lease plus retention, and renew extends it', async () => {
    holder = createRedisState({ url: redis.url, fenceRetentionMs: 50_000 });
    rival = createRedisState({ url: redis.url });
    const lock = key('fence-ttl');
    const lease = await holder.acquireLock(lock, 10_000);
    const afterAcquire = await admin.pttl(layout.fenceKey(lock));
    expect(afterAcquire).toBeGreaterThan(50_000);
    expect(afterAcquire).toBeLessThanOrEqual(60_000);
    expect(await holder.renewLock(lease!, 40_000)).toBe(true);
    expect(await admin.pttl(layout.fenceKey(lock))).toBeGreaterThan(80_000);
    expect(await admin.pttl(layout.lockKey(lock))).toBeGreaterThan(30_000);
  });

  it('stores only the token under the lock key, and the mark under its own key', async () => {
    openBoth();
    const name = key('layout');
    await holder.markEvent(name, 60_000);
    const lease = await holder.acquireLock(name, 60_000);
    const mark = await admin.get(layout.markKey(name));
    expect(mark).toMatch(/^[0-9a-f-]{36}$/);
    expect(mark).not.toBe(lease!.token);
    expect(await admin.get(layout.lockKey(name))).toBe(lease!.token);
    expect(Number(await admin.get(layout.fenceKey(name)))).toBe(lease!.fence);
  });
});
