import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import type { StrategyName } from '../runtime/options.js';
import { createTestAdapter, flush, makeEvent, settledOf } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';

describe('two runtimes sharing one State', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each<StrategyName>(['drop', 'queue', 'debounce', 'burst'])(
    'never run two locked handlers of one scope at once (%s)',
    async (strategy) => {
      const state = new TestState();
      let running = 0;
      let maxRunning = 0;
      let handled = 0;
      const make = () => {
        const adapter = createTestAdapter();
        const runtime = createRuntime({
          state,
          adapters: [adapter],
          concurrency: { strategy, debounceMs: 20, burstWindowMs: 20, lockPollMaxMs: 200 },
        });
        runtime.onMessage(async () => {
          running += 1;
          maxRunning = Math.max(maxRunning, running);
          await new Promise((r) => setTimeout(r, 300));
          running -= 1;
          handled += 1;
        });
        return { runtime, adapter };
      };
      const a = make();
      const b = make();
      const settled: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i += 1) {
        const target = i % 2 === 0 ? a : b;
        const r = await target.adapter.send({ thread: 'shared' });
        settled.push(settledOf(r));
        await vi.advanceTimersByTimeAsync(37);
      }
      await vi.advanceTimersByTimeAsync(60_000);
      await Promise.all(settled);
      expect(maxRunning).toBe(1);
      expect(handled).toBeGreaterThan(0);
    },
  );

  it('accepts one event delivered to both instances once (shared dedupe)', async () => {
    const state = new TestState();
    const adapters = [createTestAdapter(), createTestAdapter()];
    let handled = 0;
    for (const adapter of adapters) {
      createRuntime({ state, adapters: [adapter] }).onMessage(() => {
        handled += 1;
      });
    }
    const event = makeEvent({ adapter: 'test' });
    const results = await Promise.all(adapters.map((a) => a.runtime!.dispatch(event)));
    expect(results.map((r) => r.status).sort()).toEqual(['accepted', 'duplicate']);
    await flush();
    expect(handled).toBe(1);
  });

  it('wakes a queue waiter on one instance when the holder on the other releases (polling)', async () => {
    const state = new TestState();
    const order: string[] = [];
    const runtimes = [createTestAdapter(), createTestAdapter()].map((adapter) => {
      const runtime = createRuntime({
        state,
        adapters: [adapter],
        concurrency: { strategy: 'queue', lockPollInitialMs: 50, lockPollMaxMs: 400 },
      });
      runtime.onMessage(async (ctx) => {
        order.push(`start ${ctx.event.id}`);
        await new Promise((r) => setTimeout(r, 1000));
        order.push(`end ${ctx.event.id}`);
      });
      return { runtime, adapter };
    });
    const first = await runtimes[0]!.adapter.send({ id: 'on-a', thread: 't' });
    await vi.advanceTimersByTimeAsync(10);
    const second = await runtimes[1]!.adapter.send({ id: 'on-b', thread: 't' });
    await vi.advanceTimersByTimeAsync(3000);
    for (const r of [first, second]) {
      expect((await settledOf(r)).outcome).toBe('completed');
    }
    expect(order).toEqual(['start on-a', 'end on-a', 'start on-b', 'end on-b']);
  });
});
