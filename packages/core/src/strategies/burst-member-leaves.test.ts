import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, flush, settledOf } from '../test-support/test-adapter.js';

describe('burst: a member whose life ends before its batch runs', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('leaves alone with timed-out while the rest of its batch still runs', async () => {
    const { runtime, adapter } = setup({
      detachTimeoutMs: 5_000,
      concurrency: { strategy: 'burst', burstWindowMs: 100 },
    });
    const gate = deferred();
    const batches: string[][] = [];
    runtime.onMessage(async (ctx) => {
      batches.push(ctx.batch.map((event) => event.id));
      if (batches.length === 1) await gate.promise;
    });
    const x = settledOf(await adapter.send({ id: 'x', thread: 't' }));
    await vi.advanceTimersByTimeAsync(200); // x's batch closed at 100 and runs, held by the gate
    const a = settledOf(await adapter.send({ id: 'a', thread: 't' }));
    await vi.advanceTimersByTimeAsync(50);
    const b = settledOf(await adapter.send({ id: 'b', thread: 't' }));
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 3, parked: 2 });

    await vi.advanceTimersByTimeAsync(4_960); // a reaches its detach timeout; b has 40 ms left
    expect(await a).toMatchObject({ outcome: 'timed-out' });
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 2, parked: 1 });

    // x's own detach timeout fired too, but its handler ignores the signal and holds the lock.
    gate.resolve();
    await flush();
    expect(await x).toMatchObject({ outcome: 'timed-out' });
    expect(await b).toMatchObject({ outcome: 'completed' });
    expect(batches).toEqual([['x'], ['b']]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
  });

  it('ends a batch whose every member left without running its handler', async () => {
    const { runtime, adapter, state } = setup({
      detachTimeoutMs: 1_000,
      concurrency: { strategy: 'burst', burstWindowMs: 100 },
    });
    const gate = deferred();
    const batches: string[][] = [];
    runtime.onMessage(async (ctx) => {
      batches.push(ctx.batch.map((event) => event.id));
      await gate.promise;
    });
    settledOf(await adapter.send({ id: 'x', thread: 't' }));
    await vi.advanceTimersByTimeAsync(200);
    const a = settledOf(await adapter.send({ id: 'a', thread: 't' }));
    const b = settledOf(await adapter.send({ id: 'b', thread: 't' }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await a).toMatchObject({ outcome: 'timed-out' });
    expect(await b).toMatchObject({ outcome: 'timed-out' });
    expect(runtime.stats().parked).toBe(0);
    gate.resolve();
    await vi.advanceTimersByTimeAsync(100);
    expect(batches).toEqual([['x']]);
    expect(state.locks.size).toBe(0);
    expect(runtime.stats().detachedInFlight).toBe(0);
  });

  it('lets a sync member reach its deadline without ending the deferred members it joined', async () => {
    const { runtime, adapter } = setup(
      { concurrency: { strategy: 'burst', burstWindowMs: 100 } },
      { shapeModes: { modal: 'sync' } },
    );
    const batches: string[][] = [];
    runtime.onMessage(() => {
      batches.push([]);
    });
    runtime.on({ kind: 'raw', type: 'modal' }, () => {});
    runtime.on({ kind: 'message' }, (ctx) => {
      batches[batches.length - 1] = ctx.batch.map((event) => event.id);
    });
    const deferredMember = settledOf(await adapter.send({ id: 'd', thread: 't' }));
    const deadline = new AbortController();
    const syncMember = adapter.send(
      { id: 's', thread: 't', kind: 'message', shape: 'modal' },
      { signal: deadline.signal },
    );
    await flush();
    expect(runtime.stats().parked).toBe(2);
    deadline.abort(new Error('adapter deadline'));
    expect(await syncMember).toMatchObject({ status: 'completed', outcome: 'timed-out' });
    await vi.advanceTimersByTimeAsync(100);
    expect(await deferredMember).toMatchObject({ outcome: 'completed' });
    expect(batches).toEqual([['d']]);
  });
});
