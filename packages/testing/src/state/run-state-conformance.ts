/**
 * The one contract suite every `State` implementation runs (docs/contract.md §8).
 */
import type { State } from '@rt/core';
import { describe } from 'vitest';
import { createConformanceContext, type StateConformanceOptions } from './conformance-context.js';
import { defineDedupeTests } from './conformance-dedupe.js';
import { defineFencingTests } from './conformance-fencing.js';
import { defineLifecycleTests } from './conformance-lifecycle.js';
import { defineLockTests } from './conformance-locks.js';
import { defineMultiMarkTests } from './conformance-multi-mark.js';
import { defineSubscriptionTests } from './conformance-subscriptions.js';
import { defineThreadStateTests } from './conformance-thread-state.js';
import { defineWakeupTests } from './conformance-wakeups.js';

/**
 * Defines a vitest `describe(name)` suite that checks `makeState`'s States against the State
 * contract: atomic dedupe, TTL expiry, exclusive token-checked leases, per-key strictly increasing
 * fences, validation, idempotent close (and `LockWakeups` when `options.lockWakeups`,
 * `MultiKeyMark` when `options.multiKeyMark`, `Subscriptions` when `options.subscriptions`,
 * `FencedThreadState` when `options.threadState`).
 *
 * Call it at the top level of a test file. `makeState` is called once or more per test; every
 * State it returns is closed after the test. Keys carry a random per-run prefix, so States backed
 * by a shared store (Redis) may run it concurrently. Expiry tests use real time: the suite waits
 * about `2 * shortTtlMs` per expiry test.
 */
export function runStateConformance(
  name: string,
  makeState: () => Promise<State> | State,
  options?: StateConformanceOptions,
): void {
  describe(name, () => {
    const ctx = createConformanceContext(makeState, options);
    describe('dedupe marks', () => defineDedupeTests(ctx));
    describe('thread locks', () => defineLockTests(ctx));
    describe('fencing', () => defineFencingTests(ctx));
    describe('validation and lifecycle', () => defineLifecycleTests(ctx));
    if (ctx.options.lockWakeups) describe('lock wake-ups', () => defineWakeupTests(ctx));
    if (ctx.options.multiKeyMark) describe('multi-key marks', () => defineMultiMarkTests(ctx));
    if (ctx.options.subscriptions) describe('subscriptions', () => defineSubscriptionTests(ctx));
    if (ctx.options.threadState) describe('thread state', () => defineThreadStateTests(ctx));
  });
}
