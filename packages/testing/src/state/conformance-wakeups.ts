/**
 * Conformance: the optional `LockWakeups` capability (`waitForRelease`).
 */
import type { State } from '@rt/core';
import { hasLockWakeups, type LockWakeups } from '@rt/core/state';
import { expect, it } from 'vitest';
import type { ConformanceContext } from './conformance-context.js';

/** A wait long enough that reaching it means the wake-up never came (the test times out first). */
const NEVER_MS = 60_000;

/** Registers the wake-up tests. */
export function defineWakeupTests(ctx: ConformanceContext): void {
  async function openWithWakeups(): Promise<State & LockWakeups> {
    const state = await ctx.open();
    expect(hasLockWakeups(state)).toBe(true);
    return state as State & LockWakeups;
  }

  it('resolves waitForRelease when the holder releases the lock', async () => {
    const state = await openWithWakeups();
    const key = ctx.key('wake-release');
    const lease = await state.acquireLock(key, NEVER_MS);
    const settled = { value: false };
    const waiting = state.waitForRelease(key, NEVER_MS, new AbortController().signal).then(() => {
      settled.value = true;
    });
    await new Promise((resolve) => setTimeout(resolve, ctx.options.shortTtlMs));
    expect(settled.value).toBe(false);
    expect(await state.releaseLock(lease!)).toBe(true);
    await waiting;
    expect(await state.acquireLock(key, 1000)).not.toBeNull();
  });

  it('resolves waitForRelease at once when the key is free', async () => {
    const state = await openWithWakeups();
    await state.waitForRelease(ctx.key('wake-free'), NEVER_MS, new AbortController().signal);
  });

  it('resolves waitForRelease after timeoutMs when the lock stays held', async () => {
    const state = await openWithWakeups();
    const key = ctx.key('wake-timeout');
    await state.acquireLock(key, NEVER_MS);
    await state.waitForRelease(key, ctx.options.shortTtlMs, new AbortController().signal);
    expect(await state.acquireLock(key, 1000)).toBeNull();
  });

  it('rejects waitForRelease with the signal reason when aborted', async () => {
    const state = await openWithWakeups();
    const key = ctx.key('wake-abort');
    await state.acquireLock(key, NEVER_MS);
    const controller = new AbortController();
    const waiting = state.waitForRelease(key, NEVER_MS, controller.signal);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('rejects waitForRelease at once when the signal is already aborted', async () => {
    const state = await openWithWakeups();
    const key = ctx.key('wake-pre-aborted');
    await state.acquireLock(key, NEVER_MS);
    const reason = new Error('already aborted');
    await expect(state.waitForRelease(key, NEVER_MS, AbortSignal.abort(reason))).rejects.toBe(
      reason,
    );
  });
}
