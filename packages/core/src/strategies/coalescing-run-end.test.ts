/**
 * How a coalescing survivor's run ends through its sink: the lease is released before the result
 * is settled, and a run whose hook threw still ends the delivery (`failed`), never leaving it
 * unsettled. Driven with a hand-built strategy host, since the runtime's own hooks never throw.
 */
import { describe, expect, it } from 'vitest';
import { type Delivery, newDelivery } from '../dispatch/delivery.js';
import { invokeHandlers, type RunSink, startHandlers } from '../dispatch/invoke-handlers.js';
import { LockManager } from '../locks/lock-manager.js';
import { DEFAULT_CONCURRENCY } from '../runtime/options.js';
import { createTestAdapter, makeEvent } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';
import { QueueStrategy } from './queue.js';
import type { StrategyHost } from './strategy.js';

function makeHost(start: StrategyHost['start']) {
  const state = new TestState();
  const observe = () => {};
  const host: StrategyHost = {
    locks: new LockManager(state, 30_000, observe),
    config: { ...DEFAULT_CONCURRENCY, strategy: 'queue', maxConcurrent: undefined },
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

describe('a coalescing survivor run', () => {
  it('releases its lease before its result is settled', async () => {
    const { host, state } = makeHost(startHandlers);
    const result = await new QueueStrategy(host).run(delivery(() => 'done'));
    expect(result).toEqual({ outcome: 'completed', response: 'done' });
    expect(state.locks.size).toBe(0);
  });

  it('ends failed, with its lease released, when a hook of its run threw', async () => {
    const broken = new Error('a hook threw');
    const { host, state } = makeHost((_delivery, _extras, sink: RunSink) => sink.threw(broken));
    const result = await new QueueStrategy(host).run(delivery(() => 'never run'));
    expect(result).toEqual({ outcome: 'failed', error: broken });
    expect(state.locks.size).toBe(0);
  });
});
