import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, flush, outcomeNow, settledOf } from '../test-support/test-adapter.js';

describe('burst strategy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('splits 25 members with maxBatch 10 into batches of 10, 10 and 5, each member once, in order', async () => {
    const { runtime, adapter } = setup({
      concurrency: { strategy: 'burst', burstWindowMs: 1000, maxBatch: 10 },
    });
    const batches: string[][] = [];
    const gates: ReturnType<typeof deferred<void>>[] = [];
    runtime.onMessage(async (ctx) => {
      batches.push(ctx.batch.map((e) => e.id));
      expect(ctx.event.id).toBe(ctx.batch[0]!.id);
      const gate = deferred<void>();
      gates.push(gate);
      await gate.promise;
    });
    const results = [];
    for (let i = 0; i < 25; i += 1) results.push(await adapter.send({ id: `e${i}`, thread: 't' }));
    await flush();
    expect(batches).toEqual([Array.from({ length: 10 }, (_, i) => `e${i}`)]);
    // Every member still holds its slot: 10 running, 15 waiting in closed/open batches.
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 25, parked: 15 });

    gates[0]!.resolve();
    await vi.advanceTimersByTimeAsync(0);
    await flush();
    expect(batches[1]).toEqual(Array.from({ length: 10 }, (_, i) => `e${i + 10}`));
    expect(runtime.stats().detachedInFlight).toBe(15);
    gates[1]!.resolve();
    await vi.advanceTimersByTimeAsync(1000); // the open batch of 5 closes at its window
    await flush();
    expect(batches[2]).toEqual(['e20', 'e21', 'e22', 'e23', 'e24']);
    expect(runtime.stats().detachedInFlight).toBe(5);
    gates[2]!.resolve();
    const outcomes = await Promise.all(results.map((r) => settledOf(r).then((f) => f.outcome)));
    expect(outcomes).toEqual(Array(25).fill('completed'));
    expect(batches.flat()).toEqual(Array.from({ length: 25 }, (_, i) => `e${i}`));
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
  });

  it('gives every member its batch outcome', async () => {
    const { runtime, adapter } = setup({ concurrency: { strategy: 'burst', burstWindowMs: 50 } });
    runtime.onMessage(() => {
      throw new Error('batch failed');
    });
    const results = [await adapter.send({ thread: 't' }), await adapter.send({ thread: 't' })];
    await vi.advanceTimersByTimeAsync(50);
    for (const r of results) expect((await settledOf(r)).outcome).toBe('failed');
  });

  it('ends an open batch with shutdown at once for every member', async () => {
    const { runtime, adapter } = setup({
      concurrency: { strategy: 'burst', burstWindowMs: 10_000 },
    });
    let ran = false;
    runtime.onMessage(() => {
      ran = true;
    });
    const results = [await adapter.send({ thread: 't' }), await adapter.send({ thread: 't' })];
    await runtime.shutdown();
    for (const r of results) expect((await settledOf(r)).outcome).toBe('shutdown');
    expect(ran).toBe(false);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
  });

  it('keeps batches of different scopes apart', async () => {
    const { runtime, adapter } = setup({ concurrency: { strategy: 'burst', burstWindowMs: 100 } });
    const batches: string[][] = [];
    runtime.onMessage((ctx) => void batches.push(ctx.batch.map((e) => e.thread!)));
    await adapter.send({ thread: 'a' });
    await adapter.send({ thread: 'b' });
    await adapter.send({ thread: 'a' });
    await vi.advanceTimersByTimeAsync(100);
    expect(batches.sort()).toEqual([['a', 'a'], ['b']]);
  });

  it('ends a closed batch queued behind a running one with shutdown at once; the running batch keeps its grace', async () => {
    const { runtime, adapter } = setup({
      concurrency: { strategy: 'burst', burstWindowMs: 10_000, maxBatch: 2 },
    });
    const hold = deferred();
    const batches: string[][] = [];
    runtime.onMessage(async (ctx) => {
      batches.push(ctx.batch.map((e) => e.id));
      await hold.promise;
    });
    const running = [
      await adapter.send({ id: 'a1', thread: 't' }),
      await adapter.send({ id: 'a2', thread: 't' }), // maxBatch closes the batch: it runs
    ];
    await flush();
    const queued = [
      await adapter.send({ id: 'b1', thread: 't' }),
      await adapter.send({ id: 'b2', thread: 't' }), // closed, waiting behind the running batch
    ];
    await flush();
    expect(batches).toEqual([['a1', 'a2']]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 4, parked: 2 });

    const stopping = runtime.shutdown({ graceMs: 60_000 });
    // No timer runs: the queued members leave without waiting for the running batch.
    expect(await Promise.all(queued.map(outcomeNow))).toEqual(['shutdown', 'shutdown']);
    expect(await Promise.all(running.map(outcomeNow))).toEqual(['pending', 'pending']);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 2, parked: 0 });

    hold.resolve();
    await stopping;
    expect(await Promise.all(running.map(outcomeNow))).toEqual(['completed', 'completed']);
    expect(batches).toEqual([['a1', 'a2']]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
  });
});
