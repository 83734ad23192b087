import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, flush } from '../test-support/test-adapter.js';

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
    const outcomes = await Promise.all(
      results.map((r) => (r.status === 'accepted' ? r.settled.then((f) => f.outcome) : r.status)),
    );
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
    for (const r of results) {
      if (r.status === 'accepted') expect((await r.settled).outcome).toBe('failed');
    }
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
    for (const r of results) {
      if (r.status === 'accepted') expect((await r.settled).outcome).toBe('shutdown');
    }
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
});
