import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, flush, settledOf } from '../test-support/test-adapter.js';

describe('concurrent strategy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at most maxConcurrent per scope; the waiting line counts against the bound', async () => {
    const { runtime, adapter, state } = setup({
      maxDetached: 3,
      concurrency: { strategy: 'concurrent', maxConcurrent: 1 },
    });
    const holds = [deferred(), deferred(), deferred()];
    let running = 0;
    const started: number[] = [];
    runtime.onMessage(async (ctx) => {
      const n = (ctx.event.payload as { n: number }).n;
      started.push(n);
      running += 1;
      expect(running).toBe(1);
      expect(ctx.lock).toBeUndefined();
      await holds[n]!.promise;
      running -= 1;
    });
    const results = [];
    for (let n = 0; n < 3; n += 1)
      results.push(await adapter.send({ thread: 's', payload: { n } }));
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 3, parked: 2 });
    await expect(adapter.send({ thread: 'other' })).rejects.toMatchObject({ reason: 'capacity' });
    expect(state.locks.size).toBe(0);

    for (const hold of holds) {
      hold.resolve();
      await flush();
    }
    for (const r of results) expect((await settledOf(r)).outcome).toBe('completed');
    expect(started).toEqual([0, 1, 2]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
  });

  it('keeps FIFO order in the waiting line even when a waiter leaves early', async () => {
    const { runtime, adapter } = setup({
      detachTimeoutMs: 1000,
      concurrency: { strategy: 'concurrent', maxConcurrent: 1 },
    });
    const started: number[] = [];
    const gates = new Map<number, ReturnType<typeof deferred<void>>>();
    runtime.onMessage(async (ctx) => {
      const n = (ctx.event.payload as { n: number }).n;
      started.push(n);
      const gate = deferred();
      gates.set(n, gate);
      await gate.promise;
    });
    const send = (n: number) => adapter.send({ thread: 's', payload: { n } });
    const results = [await send(0), await send(1)];
    await vi.advanceTimersByTimeAsync(500);
    results.push(await send(2), await send(3));
    // 1 reaches its detach timeout while waiting and leaves the line; 2 and 3 keep their places.
    await vi.advanceTimersByTimeAsync(500);
    expect(runtime.stats().parked).toBe(2);
    gates.get(0)!.resolve();
    await flush();
    expect(started).toEqual([0, 2]);
    gates.get(2)!.resolve();
    await flush();
    expect(started).toEqual([0, 2, 3]);
    gates.get(3)!.resolve();
    const outcomes = await Promise.all(results.map((r) => settledOf(r).then((f) => f.outcome)));
    expect(outcomes).toEqual(['timed-out', 'timed-out', 'completed', 'completed']);
    expect(runtime.stats()).toMatchObject({ parked: 0, detachedInFlight: 0 });
  });

  it('runs without limit and without a line when maxConcurrent is unset', async () => {
    const { runtime, adapter } = setup({ concurrency: 'concurrent' });
    const hold = deferred();
    let running = 0;
    runtime.onMessage(async () => {
      running += 1;
      await hold.promise;
    });
    for (let i = 0; i < 5; i += 1) await adapter.send({ thread: 'same' });
    await flush();
    expect(running).toBe(5);
    expect(runtime.stats().parked).toBe(0);
    hold.resolve();
  });
});
