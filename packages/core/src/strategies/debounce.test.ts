import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, outcomeNow, settledOf } from '../test-support/test-adapter.js';

describe('debounce strategy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('turns a rapid series into one handler call with every earlier delivery in ctx.skipped', async () => {
    const { runtime, adapter } = setup({ concurrency: { strategy: 'debounce', debounceMs: 1000 } });
    const calls: { id: string; skipped: string[] }[] = [];
    runtime.onMessage((ctx) => {
      calls.push({ id: ctx.event.id, skipped: ctx.skipped.map((e) => e.id) });
    });
    const results = [];
    for (let i = 0; i < 5; i += 1) {
      results.push(await adapter.send({ id: `m${i}`, thread: 't' }));
      await vi.advanceTimersByTimeAsync(600); // each arrival restarts the 1000 ms window
    }
    expect(calls).toEqual([]);
    expect(runtime.stats().parked).toBe(1);
    await vi.advanceTimersByTimeAsync(400);
    const outcomes = await Promise.all(results.map((r) => settledOf(r).then((f) => f.outcome)));
    expect(outcomes).toEqual(['superseded', 'superseded', 'superseded', 'superseded', 'completed']);
    expect(calls).toEqual([{ id: 'm4', skipped: ['m0', 'm1', 'm2', 'm3'] }]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
  });

  it('debounces scopes independently', async () => {
    const { runtime, adapter } = setup({ concurrency: { strategy: 'debounce', debounceMs: 100 } });
    const ran: string[] = [];
    runtime.onMessage((ctx) => void ran.push(ctx.event.thread!));
    await adapter.send({ thread: 'a' });
    await adapter.send({ thread: 'b' });
    await adapter.send({ thread: 'a' });
    await vi.advanceTimersByTimeAsync(100);
    expect(ran.sort()).toEqual(['a', 'b']);
  });

  it('waits for a lock held by a running handler after the window, then runs the survivor', async () => {
    const { runtime, adapter } = setup({ concurrency: { strategy: 'debounce', debounceMs: 100 } });
    let release!: () => void;
    const ran: string[] = [];
    runtime.onMessage(async (ctx) => {
      ran.push(ctx.event.id);
      if (ctx.event.id === 'long') await new Promise<void>((r) => (release = r));
    });
    await adapter.send({ id: 'long', thread: 't' });
    await vi.advanceTimersByTimeAsync(100);
    expect(ran).toEqual(['long']);
    const next = await adapter.send({ id: 'next', thread: 't' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(ran).toEqual(['long']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect((await settledOf(next)).outcome).toBe('completed');
    expect(ran).toEqual(['long', 'next']);
  });

  it('ends a delivery parked in its quiet window with timed-out at its detach timeout, releasing its slot', async () => {
    const { runtime, adapter } = setup({
      detachTimeoutMs: 1000,
      concurrency: { strategy: 'debounce', debounceMs: 5000 },
    });
    let calls = 0;
    runtime.onMessage(() => {
      calls += 1;
    });
    const parked = await adapter.send({ thread: 't' });
    await vi.advanceTimersByTimeAsync(999);
    expect(await outcomeNow(parked)).toBe('pending');
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 1, parked: 1 });
    await vi.advanceTimersByTimeAsync(1);
    expect(await settledOf(parked)).toMatchObject({
      outcome: 'timed-out',
      error: { code: 'RT_DETACH_TIMEOUT' },
    });
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends a survivor waiting for the lock a running handler holds with timed-out at its detach timeout, releasing its slot', async () => {
    // The holder is a sync delivery: no detach timeout of its own.
    const { runtime, adapter, state } = setup(
      { detachTimeoutMs: 1000, concurrency: { strategy: 'debounce', debounceMs: 100 } },
      { shapeModes: { modal: 'sync' } },
    );
    const hold = deferred();
    const ran: string[] = [];
    runtime.onMessage(async (ctx) => {
      ran.push(ctx.event.id);
      if (ctx.event.id === 'long') await hold.promise;
    });
    const long = adapter.send({ id: 'long', thread: 't', shape: 'modal' });
    await vi.advanceTimersByTimeAsync(100);
    expect(ran).toEqual(['long']);
    const waiter = await adapter.send({ id: 'waiter', thread: 't' });
    await vi.advanceTimersByTimeAsync(999); // its window is over; it polls for the lock
    expect(await outcomeNow(waiter)).toBe('pending');
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 1, parked: 1 });
    await vi.advanceTimersByTimeAsync(1);
    expect((await settledOf(waiter)).outcome).toBe('timed-out');
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
    const acquiresAfterTimeout = state.calls.filter((c) => c.startsWith('acquireLock')).length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(state.calls.filter((c) => c.startsWith('acquireLock'))).toHaveLength(
      acquiresAfterTimeout,
    );
    hold.resolve();
    await expect(long).resolves.toMatchObject({ status: 'completed', outcome: 'completed' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(ran).toEqual(['long']);
  });

  it('ends a delivery parked in its quiet window with shutdown at once when shutdown starts', async () => {
    const { runtime, adapter } = setup({ concurrency: { strategy: 'debounce', debounceMs: 5000 } });
    let calls = 0;
    runtime.onMessage(() => {
      calls += 1;
    });
    const first = await adapter.send({ thread: 't' });
    const parked = await adapter.send({ thread: 't' });
    const other = await adapter.send({ thread: 'u' });
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 2, parked: 2 });
    const stopping = runtime.shutdown({ graceMs: 60_000 });
    // No timer runs: leaving must not wait for the window, the grace period or a poll.
    expect(await outcomeNow(parked)).toBe('shutdown');
    expect(await outcomeNow(other)).toBe('shutdown');
    expect(await outcomeNow(first)).toBe('superseded');
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
    await stopping;
    expect(calls).toBe(0);
  });
});
