/**
 * How the runs of the lock-taking strategies end through their sinks (a `queue` survivor's, a
 * `drop` delivery's, a `burst` batch's): the lease is released before the result is handed on, and
 * a run whose hook threw still ends its deliveries (`failed`), never leaving one unsettled; a
 * burst scope's next batch still runs after it. Driven with a hand-built strategy host, since the
 * runtime's own hooks never throw.
 */
import { describe, expect, it } from 'vitest';
import { type Delivery, newDelivery } from '../dispatch/delivery.js';
import { invokeHandlers, type RunSink, startHandlers } from '../dispatch/invoke-handlers.js';
import { LockManager } from '../locks/lock-manager.js';
import { DEFAULT_CONCURRENCY, type StrategyName } from '../runtime/options.js';
import { createTestAdapter, makeEvent } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';
import { BurstStrategy } from './burst.js';
import { DropStrategy } from './drop.js';
import { QueueStrategy } from './queue.js';
import type { StrategyHost } from './strategy.js';

function makeHost(strategy: StrategyName, start: StrategyHost['start']) {
  const state = new TestState();
  const observe = () => {};
  const host: StrategyHost = {
    locks: new LockManager(state, 30_000, observe),
    config: {
      ...DEFAULT_CONCURRENCY,
      strategy,
      maxConcurrent: undefined,
      burstWindowMs: 1,
      maxBatch: 1,
    },
    shutdownSignal: new AbortController().signal,
    invoke: invokeHandlers,
    start,
    observe,
  };
  return { host, state };
}

function delivery(handler: () => unknown): Delivery {
  return newDelivery({
    event: makeEvent({ thread: 'T' }),
    handlers: [handler],
    adapter: createTestAdapter(),
    mode: 'deferred',
    scopeKey: 'test:T1:T',
    slot: undefined,
  });
}

const broken = new Error('a hook threw');
/** Fails the first run's hook, runs every later one. */
function failingFirst(): StrategyHost['start'] {
  let runs = 0;
  return (d, extras, sink: RunSink) => {
    runs += 1;
    if (runs === 1) sink.threw(broken);
    else startHandlers(d, extras, sink);
  };
}

describe.each([
  ['queue', (host: StrategyHost) => new QueueStrategy(host)],
  ['drop', (host: StrategyHost) => new DropStrategy(host)],
  ['burst', (host: StrategyHost) => new BurstStrategy(host)],
] as const)('a %s run', (name, build) => {
  it('releases its lease before its result is handed on', async () => {
    const { host, state } = makeHost(name, startHandlers);
    const result = await build(host).run(delivery(() => 'done'));
    expect(result).toEqual({ outcome: 'completed', response: 'done' });
    expect(state.locks.size).toBe(0);
  });

  it('ends failed, with its lease released, when a hook of its run threw', async () => {
    const { host, state } = makeHost(name, failingFirst());
    const result = await build(host).run(delivery(() => 'never run'));
    expect(result).toEqual({ outcome: 'failed', error: broken });
    expect(state.locks.size).toBe(0);
  });
});

describe('a burst scope after a batch whose hook threw', () => {
  it('still runs its next closed batch', async () => {
    const { host, state } = makeHost('burst', failingFirst());
    const burst = new BurstStrategy(host);
    // maxBatch 1: each delivery is a closed batch of its own, the second waiting for the first.
    const first = burst.run(delivery(() => 'never run'));
    const second = burst.run(delivery(() => 'second'));
    expect(await first).toEqual({ outcome: 'failed', error: broken });
    expect(await second).toEqual({ outcome: 'completed', response: 'second' });
    expect(state.locks.size).toBe(0);
    expect(burst.parked).toBe(0);
  });
});
