import { randomUUID } from 'node:crypto';
import { installationMarkKey } from '@rt/core/state';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyLayout } from '../key-layout.js';
import { createRedisState } from '../redis-state.js';
import { type PrivateRedisServer, startRedisServer } from '../test-support/redis-server.js';
import { acquireScript, markEventsScript, releaseScript, renewScript } from './scripts.js';

// Always a private server, never REDIS_URL: one test runs SCRIPT FLUSH, which would empty the
// script cache of everyone else on a shared server.
describe('Lua scripts', () => {
  let redis: PrivateRedisServer;
  let admin: Redis;

  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await redis?.dispose();
  });

  it('have a header naming KEYS, ARGV and the result', () => {
    for (const script of [acquireScript, renewScript, releaseScript, markEventsScript]) {
      expect(script.source).toMatch(/-- KEYS\[1\]/);
      expect(script.source).toMatch(/-- ARGV\[1\]/);
      expect(script.source).toMatch(/-- Returns:/);
      expect(script.sha).toMatch(/^[0-9a-f]{40}$/);
    }
  });

  it('reload through EVAL after SCRIPT FLUSH and are cached under their SHA again', async () => {
    const state = createRedisState({ url: redis.url });
    try {
      const key = `scripts:${randomUUID()}`;
      const first = await state.acquireLock(key, 60_000);
      expect(await admin.script('EXISTS', acquireScript.sha)).toEqual([1]);
      await admin.script('FLUSH');
      expect(await admin.script('EXISTS', acquireScript.sha, releaseScript.sha)).toEqual([0, 0]);
      expect(await state.releaseLock(first!)).toBe(true);
      const second = await state.acquireLock(key, 60_000);
      expect(second!.fence).toBeGreaterThan(first!.fence);
      expect(await admin.script('EXISTS', acquireScript.sha, releaseScript.sha)).toEqual([1, 1]);
    } finally {
      await state.close();
    }
  });

  it('mark-events reloads through EVAL after SCRIPT FLUSH and keeps all-or-nothing', async () => {
    const state = createRedisState({ url: redis.url });
    try {
      const key = (id: string) => installationMarkKey('event', 'scripts', randomUUID(), id);
      const first = [key('a')];
      expect(await state.markEvents(first, 60_000)).toBe(true);
      expect(await admin.script('EXISTS', markEventsScript.sha)).toEqual([1]);
      await admin.script('FLUSH');
      const tenant = randomUUID();
      const keys = ['a', 'b'].map((id) => installationMarkKey('event', 'scripts', tenant, id));
      expect(await state.markEvents(keys, 60_000)).toBe(true);
      expect(await admin.script('EXISTS', markEventsScript.sha)).toEqual([1]);
      expect(await state.markEvents([keys[1]!], 60_000)).toBe(false);
    } finally {
      await state.close();
    }
  });

  it('mark-events sets every key with the TTL, or none when one exists', async () => {
    const state = createRedisState({ url: redis.url });
    try {
      const layout = keyLayout('rt:');
      const tenant = randomUUID();
      const [a, b, c] = ['a', 'b', 'c'].map((id) =>
        installationMarkKey('message', 'scripts', tenant, id),
      ) as [string, string, string];
      expect(await state.markEvents([a, b], 60_000)).toBe(true);
      const token = await admin.get(layout.markKey(a));
      expect(token).toMatch(/^[0-9a-f-]{36}$/);
      for (const name of [a, b]) {
        expect(await admin.get(layout.markKey(name))).toBe(token);
        const pttl = await admin.pttl(layout.markKey(name));
        expect(pttl).toBeGreaterThan(0);
        expect(pttl).toBeLessThanOrEqual(60_000);
      }
      await admin.pexpire(layout.markKey(b), 5_000);
      expect(await state.markEvents([c, b], 60_000)).toBe(false);
      expect(await admin.exists(layout.markKey(c))).toBe(0);
      expect(await admin.pttl(layout.markKey(b))).toBeLessThanOrEqual(5_000);
    } finally {
      await state.close();
    }
  });

  it('acquire issues a fence at or above the server clock in microseconds', async () => {
    const state = createRedisState({ url: redis.url });
    try {
      const [seconds, micros] = await admin.time();
      const lease = await state.acquireLock(`scripts:${randomUUID()}`, 60_000);
      expect(lease!.fence).toBeGreaterThanOrEqual(Number(seconds) * 1_000_000 + Number(micros));
      expect(Number.isSafeInteger(lease!.fence)).toBe(true);
    } finally {
      await state.close();
    }
  });
});
