/**
 * Conformance: fencing tokens, strictly increasing per key.
 */
import { expect, it } from 'vitest';
import { type ConformanceContext, sleep } from './conformance-context.js';

/** Registers the fencing tests. */
export function defineFencingTests(ctx: ConformanceContext): void {
  it('raises the fence on every acquire, release and re-acquire of a key', async () => {
    const state = await ctx.open();
    const key = ctx.key('fence');
    let previous = 0;
    for (let round = 0; round < 10; round += 1) {
      const lease = await state.acquireLock(key, 10_000);
      expect(lease!.fence).toBeGreaterThan(previous);
      previous = lease!.fence;
      expect(await state.releaseLock(lease!)).toBe(true);
    }
  });

  it('raises the fence when the lock passes on through expiry', async () => {
    const state = await ctx.open();
    const key = ctx.key('fence-expiry');
    const ttl = ctx.options.shortTtlMs;
    const first = await state.acquireLock(key, ttl);
    await sleep(ttl * 2);
    const second = await state.acquireLock(key, ttl);
    expect(second!.fence).toBeGreaterThan(first!.fence);
    await sleep(ttl * 2);
    const third = await state.acquireLock(key, 10_000);
    expect(third!.fence).toBeGreaterThan(second!.fence);
  });

  it('does not change the fence on renew', async () => {
    const state = await ctx.open();
    const key = ctx.key('fence-renew');
    const lease = await state.acquireLock(key, 10_000);
    expect(await state.renewLock(lease!, 10_000)).toBe(true);
    await state.releaseLock(lease!);
    const next = await state.acquireLock(key, 10_000);
    expect(next!.fence).toBeGreaterThan(lease!.fence);
  });

  it('keeps each key fenced monotonically while other keys are locked in between', async () => {
    const state = await ctx.open();
    const keys = [ctx.key('fence-x'), ctx.key('fence-y')];
    const last = new Map<string, number>();
    for (let round = 0; round < 5; round += 1) {
      for (const key of keys) {
        const lease = await state.acquireLock(key, 10_000);
        expect(lease!.fence).toBeGreaterThan(last.get(key) ?? 0);
        last.set(key, lease!.fence);
        await state.releaseLock(lease!);
      }
    }
  });
}
