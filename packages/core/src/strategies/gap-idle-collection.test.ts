/**
 * Per-key records are collected when idle: concurrent scopes (`ConcurrentStrategy.scopeCount`),
 * lock-release waiters (`LockManager.waitedKeys`) and per-tenant admission counters
 * (`AdmissionController.tenantCount`). The runtime keeps these objects private, so the tests
 * drive them directly with a hand-built strategy host.
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdmissionController } from '../admission/admission-controller.js';
import { type Delivery, newDelivery } from '../dispatch/delivery.js';
import { invokeHandlers, startHandlers } from '../dispatch/invoke-handlers.js';
import { LockManager } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import type { Handler } from '../routing/handler.js';
import { DEFAULT_CONCURRENCY, type ResolvedConcurrency } from '../runtime/options.js';
import { createTestAdapter, deferred, flush, makeEvent } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';
import { ConcurrentStrategy } from './concurrent.js';
import { QueueStrategy } from './queue.js';
import type { StrategyHost } from './strategy.js';

const SCOPES = 1200;

function makeHost(config: Partial<ResolvedConcurrency>) {
  const state = new TestState();
  const shutdown = new AbortController();
  const observe = () => {};
  const locks = new LockManager(state, 30_000, observe);
  const host: StrategyHost = {
    locks,
    config: { ...DEFAULT_CONCURRENCY, maxConcurrent: undefined, ...config },
    shutdownSignal: shutdown.signal,
    invoke: invokeHandlers,
    start: startHandlers,
    observe,
  };
  return { host, locks, state, shutdown };
}

const adapter = createTestAdapter();

function delivery(scope: string, handler: Handler): Delivery {
  return newDelivery({
    event: makeEvent({ thread: scope }),
    handlers: [handler],
    adapter,
    mode: 'deferred',
    scopeKey: `test:T1:${scope}`,
    slot: undefined,
  });
}

describe('idle per-key records are collected', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.clearAllTimers();
    vi.useRealTimers();
  });

  it('deletes every concurrent scope record once its runners finished and its line emptied', async () => {
    const { host } = makeHost({ strategy: 'concurrent', maxConcurrent: 1 });
    const strategy = new ConcurrentStrategy(host);
    const hold = deferred();
    const handler = () => hold.promise;
    const runs: Promise<HandledResult>[] = [];
    const leaving: Delivery[] = [];
    for (let i = 0; i < SCOPES; i += 1) {
      runs.push(strategy.run(delivery(`s${i}`, handler))); // runs
      const waiter = delivery(`s${i}`, handler);
      runs.push(strategy.run(waiter)); // waits in the line
      if (i % 2 === 0) leaving.push(waiter);
    }
    await flush();
    expect(strategy.scopeCount).toBe(SCOPES);
    expect(strategy.parked).toBe(SCOPES);

    // Half the waiters leave the line early (their detach timeout).
    for (const waiter of leaving) waiter.controller.abort(new Error('left'));
    await flush();
    expect(strategy.parked).toBe(SCOPES / 2);
    expect(strategy.scopeCount).toBe(SCOPES);

    hold.resolve();
    const results = await Promise.all(runs);
    expect(results.filter((r) => r.outcome === 'completed')).toHaveLength(SCOPES * 1.5);
    expect(strategy.scopeCount).toBe(0);
    expect(strategy.parked).toBe(0);
  });

  it('deletes a concurrent scope whose only waiter left while nothing else was running there', async () => {
    const { host, shutdown } = makeHost({ strategy: 'concurrent', maxConcurrent: 1 });
    const strategy = new ConcurrentStrategy(host);
    const hold = deferred();
    const runs = [];
    for (let i = 0; i < SCOPES; i += 1) {
      runs.push(strategy.run(delivery(`s${i}`, () => hold.promise)));
      runs.push(strategy.run(delivery(`s${i}`, () => hold.promise)));
    }
    await flush();
    shutdown.abort(new Error('shutdown')); // every waiter leaves the line at once
    await flush();
    expect(strategy.parked).toBe(0);
    hold.resolve();
    await Promise.all(runs);
    expect(strategy.scopeCount).toBe(0);
  });

  it('keeps no scope record at all when maxConcurrent is unset', async () => {
    const { host } = makeHost({ strategy: 'concurrent' });
    const strategy = new ConcurrentStrategy(host);
    const hold = deferred();
    const runs = [];
    for (let i = 0; i < SCOPES; i += 1)
      runs.push(strategy.run(delivery(`s${i}`, () => hold.promise)));
    await flush();
    expect(strategy.scopeCount).toBe(0);
    hold.resolve();
    await Promise.all(runs);
  });

  it('deletes every lock-release waiter record once queue waiters acquired or left', async () => {
    const { host, locks, state } = makeHost({ strategy: 'queue' });
    const strategy = new QueueStrategy(host);
    const hold = deferred();
    const ran: string[] = [];
    const handler: Handler = async (ctx) => {
      ran.push(ctx.event.id);
      await hold.promise;
    };
    const runs: Promise<HandledResult>[] = [];
    const waiters: Delivery[] = [];
    for (let i = 0; i < SCOPES; i += 1) {
      runs.push(strategy.run(delivery(`s${i}`, handler)));
      await flush(); // it takes the free lock and starts
      const waiter = delivery(`s${i}`, handler);
      waiters.push(waiter);
      runs.push(strategy.run(waiter)); // parks: the lock is held
    }
    await flush();
    expect(ran).toHaveLength(SCOPES);
    expect(state.locks.size).toBe(SCOPES);
    expect(locks.waitedKeys).toBe(SCOPES);
    // Every poll times out, tries again and waits anew; none leaves a record behind.
    const acquiresBefore = state.calls.length;
    vi.advanceTimersByTime(2000); // lockPollMaxMs: every waiter's poll fires
    await flush();
    expect(state.calls.length - acquiresBefore).toBe(SCOPES);
    expect(locks.waitedKeys).toBe(SCOPES);

    // A third of the waiters leave (detach timeout): their records go at once.
    const leaving = waiters.filter((_, i) => i % 3 === 0);
    for (const waiter of leaving) waiter.controller.abort(new Error('left'));
    await flush();
    expect(locks.waitedKeys).toBe(SCOPES - leaving.length);

    hold.resolve();
    const results = await Promise.all(runs);
    expect(results.filter((r) => r.outcome === 'completed')).toHaveLength(
      2 * SCOPES - leaving.length,
    );
    expect(locks.waitedKeys).toBe(0);
    expect(state.locks.size).toBe(0);
    expect(strategy.parked).toBe(0);
  });

  it('deletes a waiter record when its wait times out or aborts, even with no release', async () => {
    const { locks } = makeHost({ strategy: 'queue' });
    const aborts: AbortController[] = [];
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < SCOPES; i += 1) {
      const controller = new AbortController();
      aborts.push(controller);
      waits.push(locks.waitForRelease(`k${i}`, 100 + i, controller.signal).catch((e) => e));
      waits.push(locks.waitForRelease(`k${i}`, 50_000, controller.signal).catch((e) => e));
    }
    expect(locks.waitedKeys).toBe(SCOPES);
    vi.advanceTimersByTime(100 + SCOPES);
    await flush();
    expect(locks.waitedKeys).toBe(SCOPES); // the longer wait of each key is still there
    for (const controller of aborts) controller.abort(new Error('stop'));
    await Promise.all(waits);
    expect(locks.waitedKeys).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('deletes every per-tenant admission counter when its last slot is released', () => {
    const admission = new AdmissionController(5000, 3);
    const slots = [];
    for (let i = 0; i < SCOPES; i += 1) {
      for (let j = 0; j < 2; j += 1) {
        const slot = admission.tryAcquire('test', `T${i}`);
        if (typeof slot === 'string') throw new Error(`rejected: ${slot}`);
        slots.push(slot);
      }
    }
    expect(admission.tenantCount).toBe(SCOPES);
    for (const slot of slots) slot.release();
    expect(admission.tenantCount).toBe(0);
    expect(admission.perTenant()).toEqual({});
    expect(admission.inFlight).toBe(0);
  });

  it('leaves no listener on the long-lived shutdown signal once waiters ran or left', async () => {
    for (const config of [
      { strategy: 'concurrent', maxConcurrent: 1 },
      { strategy: 'queue' },
    ] as const) {
      const { host, shutdown } = makeHost(config);
      const strategy =
        config.strategy === 'queue' ? new QueueStrategy(host) : new ConcurrentStrategy(host);
      const hold = deferred();
      const handler = () => hold.promise;
      const leaving = delivery('s', handler);
      const runs = [
        strategy.run(delivery('s', handler)),
        strategy.run(leaving),
        strategy.run(delivery('s', handler)),
      ];
      await flush();
      leaving.controller.abort(new Error('left'));
      hold.resolve();
      await vi.advanceTimersByTimeAsync(5_000);
      await Promise.all(runs);
      expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    }
  });
});
