/**
 * Conformance: dedupe marks (`markEvent`).
 */
import { expect, it } from 'vitest';
import { type ConformanceContext, concurrently, sleep } from './conformance-context.js';

/** Registers the dedupe tests. */
export function defineDedupeTests(ctx: ConformanceContext): void {
  it('resolves true for the first mark of a key and false while that mark lives', async () => {
    const state = await ctx.open();
    const key = ctx.key('mark');
    expect(await state.markEvent(key, 10_000)).toBe(true);
    expect(await state.markEvent(key, 10_000)).toBe(false);
    expect(await state.markEvent(key, 10_000)).toBe(false);
  });

  it('accepts exactly one of many concurrent marks of one key', async () => {
    const state = await ctx.open();
    const key = ctx.key('mark-race');
    const results = await concurrently(ctx.options.concurrency, () => state.markEvent(key, 10_000));
    expect(results.filter((result) => result === true)).toHaveLength(1);
  });

  it('lets a key be marked again once its mark has expired', async () => {
    const state = await ctx.open();
    const key = ctx.key('mark-expiry');
    const ttl = ctx.options.shortTtlMs;
    expect(await state.markEvent(key, ttl)).toBe(true);
    expect(await state.markEvent(key, ttl)).toBe(false);
    await sleep(ttl * 2);
    expect(await state.markEvent(key, ttl)).toBe(true);
    expect(await state.markEvent(key, ttl)).toBe(false);
  });

  it('does not extend a live mark when it is marked again', async () => {
    const state = await ctx.open();
    const key = ctx.key('mark-no-extend');
    const ttl = ctx.options.shortTtlMs;
    expect(await state.markEvent(key, ttl)).toBe(true);
    await sleep(ttl / 3);
    expect(await state.markEvent(key, ttl * 20)).toBe(false);
    await sleep(ttl * 1.5);
    expect(await state.markEvent(key, ttl)).toBe(true);
  });

  it('keeps marks of different keys independent', async () => {
    const state = await ctx.open();
    const keys = [ctx.key('mark-a'), ctx.key('mark-b'), ctx.key('mark-c')];
    for (const key of keys) expect(await state.markEvent(key, 10_000)).toBe(true);
    for (const key of keys) expect(await state.markEvent(key, 10_000)).toBe(false);
  });

  it('keeps marks and locks apart even under the same key string', async () => {
    const state = await ctx.open();
    const key = ctx.key('shared-name');
    expect(await state.markEvent(key, 10_000)).toBe(true);
    const lease = await state.acquireLock(key, 10_000);
    expect(lease).not.toBeNull();
    expect(await state.markEvent(key, 10_000)).toBe(false);
    expect(await state.releaseLock(lease!)).toBe(true);
    expect(await state.markEvent(key, 10_000)).toBe(false);
  });
}
