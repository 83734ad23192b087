/**
 * Conformance: argument validation and the `close()` lifecycle.
 */
import { hasErrorCode, type Lease } from '@rt/core';
import {
  hasFencedThreadState,
  hasLockWakeups,
  hasMultiKeyMark,
  hasSubscriptions,
} from '@rt/core/state';
import { expect, it } from 'vitest';
import type { ConformanceContext } from './conformance-context.js';

/** Registers the validation and lifecycle tests. */
export function defineLifecycleTests(ctx: ConformanceContext): void {
  it('rejects an empty key with a TypeError', async () => {
    const state = await ctx.open();
    await expect(state.markEvent('', 1000)).rejects.toThrow(TypeError);
    await expect(state.acquireLock('', 1000)).rejects.toThrow(TypeError);
  });

  it('rejects a TTL that is not a positive integer with a RangeError', async () => {
    const state = await ctx.open();
    const key = ctx.key('bad-ttl');
    for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1.5]) {
      await expect(state.markEvent(key, ttl), `markEvent ttl ${ttl}`).rejects.toThrow(RangeError);
      await expect(state.acquireLock(key, ttl), `acquireLock ttl ${ttl}`).rejects.toThrow(
        RangeError,
      );
    }
    const lease = await state.acquireLock(key, 10_000);
    await expect(state.renewLock(lease!, 0)).rejects.toThrow(RangeError);
    expect(await state.markEvent(key, 10_000)).toBe(true);
  });

  it('rejects a lease without a key or token with a TypeError', async () => {
    const state = await ctx.open();
    const bogus = { key: '', token: '', fence: 1, expiresAt: 0 } as Lease;
    await expect(state.releaseLock(bogus)).rejects.toThrow(TypeError);
    await expect(state.renewLock(bogus, 1000)).rejects.toThrow(TypeError);
  });

  it('is told about every optional capability it offers, so none goes untested', async () => {
    const state = await ctx.open();
    expect(hasLockWakeups(state), 'has LockWakeups: pass { lockWakeups: true }').toBe(
      ctx.options.lockWakeups,
    );
    expect(hasMultiKeyMark(state), 'has MultiKeyMark: pass { multiKeyMark: true }').toBe(
      ctx.options.multiKeyMark,
    );
    expect(hasSubscriptions(state), 'has Subscriptions: pass { subscriptions: true }').toBe(
      ctx.options.subscriptions,
    );
    expect(hasFencedThreadState(state), 'has FencedThreadState: pass { threadState: true }').toBe(
      ctx.options.threadState,
    );
  });

  it('closes idempotently', async () => {
    const state = await ctx.open();
    await state.close();
    await state.close();
    await expect(Promise.all([state.close(), state.close()])).resolves.toBeDefined();
  });

  it('rejects every operation after close as state-unavailable', async () => {
    const state = await ctx.open();
    const key = ctx.key('closed');
    const lease = await state.acquireLock(key, 10_000);
    await state.close();
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['markEvent', () => state.markEvent(key, 1000)],
      ['acquireLock', () => state.acquireLock(ctx.key('closed-other'), 1000)],
      ['renewLock', () => state.renewLock(lease!, 1000)],
      ['releaseLock', () => state.releaseLock(lease!)],
    ];
    for (const [name, call] of calls) {
      const error = await call().then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error, name).toBeInstanceOf(Error);
      expect(hasErrorCode(error, 'RT_STATE_UNAVAILABLE'), name).toBe(true);
    }
  });
}
