/**
 * Conformance: Thread Lock leases (`acquireLock`, `renewLock`, `releaseLock`).
 */
import type { Lease } from '@rt/core';
import { expect, it } from 'vitest';
import { type ConformanceContext, concurrently, sleep } from './conformance-context.js';

/** Registers the lock tests. */
export function defineLockTests(ctx: ConformanceContext): void {
  it('grants a free lock as a lease with the key, a token, a fence and a future expiry', async () => {
    const state = await ctx.open();
    const key = ctx.key('lock');
    const before = Date.now();
    const lease = await state.acquireLock(key, 10_000);
    expect(lease).not.toBeNull();
    expect(lease!.key).toBe(key);
    expect(typeof lease!.token).toBe('string');
    expect(lease!.token.length).toBeGreaterThanOrEqual(16);
    expect(Number.isSafeInteger(lease!.fence)).toBe(true);
    expect(lease!.fence).toBeGreaterThan(0);
    expect(lease!.expiresAt).toBeGreaterThan(before);
    expect(lease!.expiresAt).toBeLessThanOrEqual(Date.now() + 10_000);
  });

  it('grants exactly one of many concurrent acquires of one key', async () => {
    const state = await ctx.open();
    const key = ctx.key('lock-race');
    const leases = await concurrently(ctx.options.concurrency, () =>
      state.acquireLock(key, 10_000),
    );
    expect(leases.filter((lease) => lease !== null)).toHaveLength(1);
  });

  it('refuses a held lock until its holder releases it, then grants it again', async () => {
    const state = await ctx.open();
    const key = ctx.key('lock-release');
    const first = await state.acquireLock(key, 10_000);
    expect(first).not.toBeNull();
    expect(await state.acquireLock(key, 10_000)).toBeNull();
    expect(await state.releaseLock(first!)).toBe(true);
    const second = await state.acquireLock(key, 10_000);
    expect(second).not.toBeNull();
    expect(second!.token).not.toBe(first!.token);
  });

  it('releases a lease only once', async () => {
    const state = await ctx.open();
    const lease = await state.acquireLock(ctx.key('lock-once'), 10_000);
    expect(await state.releaseLock(lease!)).toBe(true);
    expect(await state.releaseLock(lease!)).toBe(false);
  });

  it('checks the token: a lease with a forged token neither renews nor releases the lock', async () => {
    const state = await ctx.open();
    const key = ctx.key('lock-forged');
    const lease = await state.acquireLock(key, 10_000);
    const forged: Lease = { ...lease!, token: `${lease!.token}-forged` };
    expect(await state.renewLock(forged, 10_000)).toBe(false);
    expect(await state.releaseLock(forged)).toBe(false);
    expect(await state.acquireLock(key, 10_000)).toBeNull();
    expect(await state.releaseLock(lease!)).toBe(true);
  });

  it('renews a held lease past its original expiry', async () => {
    const state = await ctx.open();
    const key = ctx.key('lock-renew');
    const ttl = ctx.options.shortTtlMs;
    const lease = await state.acquireLock(key, ttl);
    await sleep(ttl / 3);
    expect(await state.renewLock(lease!, ttl * 20)).toBe(true);
    await sleep(ttl * 1.5);
    expect(await state.acquireLock(key, ttl)).toBeNull();
    expect(await state.renewLock(lease!, ttl * 20)).toBe(true);
    expect(await state.releaseLock(lease!)).toBe(true);
  });

  it('can shorten a lease by renewing it with a smaller TTL', async () => {
    const state = await ctx.open();
    const key = ctx.key('lock-shorten');
    const ttl = ctx.options.shortTtlMs;
    const lease = await state.acquireLock(key, 60_000);
    expect(await state.renewLock(lease!, ttl)).toBe(true);
    await sleep(ttl * 2);
    expect(await state.acquireLock(key, 10_000)).not.toBeNull();
  });

  it('hands an expired lease over to the next acquirer', async () => {
    const state = await ctx.open();
    const key = ctx.key('lock-expiry');
    const ttl = ctx.options.shortTtlMs;
    const first = await state.acquireLock(key, ttl);
    expect(first).not.toBeNull();
    expect(await state.acquireLock(key, ttl)).toBeNull();
    await sleep(ttl * 2);
    const second = await state.acquireLock(key, 10_000);
    expect(second).not.toBeNull();
    expect(second!.token).not.toBe(first!.token);
  });

  it('reports an expired lease as lost on renew and on release', async () => {
    const state = await ctx.open();
    const ttl = ctx.options.shortTtlMs;
    const lease = await state.acquireLock(ctx.key('lock-lapsed'), ttl);
    await sleep(ttl * 2);
    expect(await state.renewLock(lease!, 10_000)).toBe(false);
    expect(await state.releaseLock(lease!)).toBe(false);
  });

  it("keeps a stale holder from renewing or releasing its successor's lease", async () => {
    const state = await ctx.open();
    const key = ctx.key('lock-stale');
    const ttl = ctx.options.shortTtlMs;
    const stale = await state.acquireLock(key, ttl);
    await sleep(ttl * 2);
    const successor = await state.acquireLock(key, 10_000);
    expect(successor).not.toBeNull();
    expect(await state.renewLock(stale!, 10_000)).toBe(false);
    expect(await state.releaseLock(stale!)).toBe(false);
    expect(await state.acquireLock(key, 10_000)).toBeNull();
    expect(await state.renewLock(successor!, 10_000)).toBe(true);
    expect(await state.releaseLock(successor!)).toBe(true);
  });

  it('issues a distinct token for every acquisition', async () => {
    const state = await ctx.open();
    const key = ctx.key('lock-tokens');
    const tokens = new Set<string>();
    for (let round = 0; round < 20; round += 1) {
      const lease = await state.acquireLock(key, 10_000);
      tokens.add(lease!.token);
      await state.releaseLock(lease!);
    }
    expect(tokens.size).toBe(20);
  });

  it('keeps locks of different keys independent', async () => {
    const state = await ctx.open();
    const a = await state.acquireLock(ctx.key('lock-a'), 10_000);
    const keyB = ctx.key('lock-b');
    const b = await state.acquireLock(keyB, 10_000);
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(await state.releaseLock(a!)).toBe(true);
    expect(await state.acquireLock(keyB, 10_000)).toBeNull();
    expect(await state.releaseLock({ ...b!, key: a!.key })).toBe(false);
    expect(await state.releaseLock(b!)).toBe(true);
  });
}
