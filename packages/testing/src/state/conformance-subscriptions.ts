/**
 * Conformance: the optional `Subscriptions` capability (thread subscriptions with their own TTL,
 * extended by a touch).
 */
import type { State } from '@rt/core';
import { hasSubscriptions, type Subscriptions } from '@rt/core/state';
import { expect, it } from 'vitest';
import { type ConformanceContext, concurrently, sleep } from './conformance-context.js';

/** A TTL no test outlives. */
const LONG_TTL_MS = 10_000;

/** Registers the subscription tests. */
export function defineSubscriptionTests(ctx: ConformanceContext): void {
  async function open(): Promise<State & Subscriptions> {
    const state = await ctx.open();
    expect(hasSubscriptions(state)).toBe(true);
    return state as State & Subscriptions;
  }

  it('subscribes a thread key, and only that key', async () => {
    const state = await open();
    const [key, other] = [ctx.key('sub'), ctx.key('sub-other')];
    expect(await state.isSubscribed(key)).toBe(false);
    await state.subscribe(key, LONG_TTL_MS);
    expect(await state.isSubscribed(key)).toBe(true);
    expect(await state.isSubscribed(other)).toBe(false);
  });

  it('unsubscribes once: true for a live subscription, false after', async () => {
    const state = await open();
    const key = ctx.key('unsub');
    await state.subscribe(key, LONG_TTL_MS);
    expect(await state.unsubscribe(key)).toBe(true);
    expect(await state.unsubscribe(key)).toBe(false);
    expect(await state.isSubscribed(key)).toBe(false);
    expect(await state.touchSubscription(key)).toBe(false);
  });

  it('touches only a live subscription and creates none', async () => {
    const state = await open();
    const key = ctx.key('touch-none');
    expect(await state.touchSubscription(key)).toBe(false);
    expect(await state.isSubscribed(key)).toBe(false);
  });

  it('ends a subscription after its TTL', async () => {
    const state = await open();
    const key = ctx.key('sub-expiry');
    await state.subscribe(key, ctx.options.shortTtlMs);
    await sleep(ctx.options.shortTtlMs * 2);
    expect(await state.isSubscribed(key)).toBe(false);
    expect(await state.touchSubscription(key)).toBe(false);
  });

  it('extends a subscription by its own TTL on each touch, and isSubscribed does not', async () => {
    const state = await open();
    // Touch at half the TTL, look at 1.1 TTL: the read-only one has lapsed, the touched one has
    // 0.4 TTL of slack for the round trips in between.
    const ttl = ctx.options.shortTtlMs * 6;
    const [touched, read] = [ctx.key('sub-touched'), ctx.key('sub-read')];
    await Promise.all([state.subscribe(touched, ttl), state.subscribe(read, ttl)]);
    await sleep(ttl / 2);
    expect(await state.touchSubscription(touched)).toBe(true);
    expect(await state.isSubscribed(read)).toBe(true);
    await sleep(ttl * 0.6);
    expect(await state.isSubscribed(read)).toBe(false);
    expect(await state.isSubscribed(touched)).toBe(true);
    await sleep(ttl * 1.5);
    expect(await state.isSubscribed(touched)).toBe(false);
  });

  it('replaces the TTL when a thread is subscribed again', async () => {
    const state = await open();
    const key = ctx.key('sub-again');
    await state.subscribe(key, ctx.options.shortTtlMs);
    await state.subscribe(key, LONG_TTL_MS);
    await sleep(ctx.options.shortTtlMs * 2);
    expect(await state.touchSubscription(key)).toBe(true);
    expect(await state.isSubscribed(key)).toBe(true);
  });

  it('answers concurrent touches of one live subscription all true', async () => {
    const state = await open();
    const key = ctx.key('sub-race');
    await state.subscribe(key, LONG_TTL_MS);
    const results = await concurrently(ctx.options.concurrency, () => state.touchSubscription(key));
    expect(results.every(Boolean)).toBe(true);
  });

  it('rejects bad arguments with TypeError or RangeError', async () => {
    const state = await open();
    await expect(state.subscribe('', LONG_TTL_MS)).rejects.toBeInstanceOf(TypeError);
    await expect(state.subscribe(ctx.key('bad'), 0)).rejects.toBeInstanceOf(RangeError);
    await expect(state.isSubscribed('')).rejects.toBeInstanceOf(TypeError);
    await expect(state.touchSubscription('')).rejects.toBeInstanceOf(TypeError);
    await expect(state.unsubscribe('')).rejects.toBeInstanceOf(TypeError);
  });
}
