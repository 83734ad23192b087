import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';

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
    const outcomes = await Promise.all(
      results.map((r) => (r.status === 'accepted' ? r.settled.then((f) => f.outcome) : r.status)),
    );
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
    if (next.status === 'accepted') expect((await next.settled).outcome).toBe('completed');
    expect(ran).toEqual(['long', 'next']);
  });
});
