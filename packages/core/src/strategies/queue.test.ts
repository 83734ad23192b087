import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DispatchResult } from '../dispatch/dispatch-result.js';
import type { RtEvent } from '../event/event.js';
import { setup } from '../test-support/setup.js';
import { deferred, flush, settledOf } from '../test-support/test-adapter.js';

const settledOutcome = async (result: DispatchResult) => (await settledOf(result)).outcome;

describe('queue strategy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('supersedes the middle of three deliveries; the last runs with it in ctx.skipped', async () => {
    const { runtime, adapter, ofType } = setup({ concurrency: 'queue' });
    const hold = deferred();
    const calls: { id: string; skipped: string[] }[] = [];
    runtime.onMessage(async (ctx) => {
      calls.push({ id: ctx.event.id, skipped: ctx.skipped.map((e) => e.id) });
      if (ctx.event.id === 'first') await hold.promise;
    });
    const first = await adapter.send({ id: 'first', thread: 't' });
    await flush();
    const middle = await adapter.send({ id: 'middle', thread: 't' });
    await vi.advanceTimersByTimeAsync(200);
    const last = await adapter.send({ id: 'last', thread: 't' });
    expect(await settledOutcome(middle)).toBe('superseded');
    expect(ofType('superseded')).toMatchObject([{ event: { id: 'middle' }, by: { id: 'last' } }]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 2, parked: 1 });

    hold.resolve();
    expect(await settledOutcome(first)).toBe('completed');
    expect(await settledOutcome(last)).toBe('completed');
    expect(calls).toEqual([
      { id: 'first', skipped: [] },
      { id: 'last', skipped: ['middle'] },
    ]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
  });

  it('hands skipped events on with their payloads, oldest first, through a chain of supersessions', async () => {
    const { runtime, adapter } = setup({ concurrency: 'queue' });
    const hold = deferred();
    let skipped: readonly RtEvent[] = [];
    runtime.onMessage(async (ctx) => {
      if (ctx.event.id === 'run') await hold.promise;
      else skipped = ctx.skipped;
    });
    await adapter.send({ id: 'run', thread: 't' });
    await flush();
    for (const id of ['a', 'b', 'c', 'd']) await adapter.send({ id, thread: 't', payload: { id } });
    hold.resolve();
    await vi.advanceTimersByTimeAsync(0);
    await flush(30);
    expect(skipped.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(skipped.map((e) => e.payload)).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  });

  it('parks exactly the newest delivery of each of 10,000 flooded scopes and supersedes the one before it', async () => {
    const scopes = 10_000;
    // Per scope one running and one parked delivery, plus the slot a newcomer holds for an instant
    // before the delivery it supersedes gives its own back: a strategy that kept superseded
    // deliveries waiting would run out of slots halfway and reject.
    const maxDetached = 2 * scopes + 1;
    const { runtime, adapter, ofType } = setup({ concurrency: 'queue', maxDetached });
    const hold = deferred();
    const ran = new Map<string, string[]>();
    runtime.onMessage(async (ctx) => {
      ran.set(
        ctx.event.id,
        ctx.skipped.map((e) => e.id),
      );
      await hold.promise;
    });
    const finished = new Set<string>();
    const settled: Promise<unknown>[] = [];
    const track = (result: DispatchResult) =>
      settled.push(settledOf(result).then((f) => void finished.add(f.event.id)));
    for (let i = 0; i < scopes; i += 1)
      track(await adapter.send({ id: `run-${i}`, thread: `s${i}` }));
    await flush();
    for (let i = 0; i < scopes; i += 1) {
      track(await adapter.send({ id: `mid-${i}`, thread: `s${i}` }));
      track(await adapter.send({ id: `new-${i}`, thread: `s${i}` }));
      await flush();
    }

    expect(runtime.stats()).toMatchObject({ parked: scopes, detachedInFlight: 2 * scopes });
    expect(runtime.stats().outcomes.superseded).toBe(scopes);
    const superseded = ofType('superseded');
    expect(superseded).toHaveLength(scopes);
    expect(
      superseded.filter((o, i) => o.event.id !== `mid-${i}` || o.by.id !== `new-${i}`),
    ).toEqual([]);
    // Only the superseded middles have finished; the running and the newest are still pending.
    expect(finished.size).toBe(scopes);
    expect([...finished].filter((id) => !id.startsWith('mid-'))).toEqual([]);
    expect(ran.size).toBe(scopes);

    hold.resolve();
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all(settled);
    expect(ran.size).toBe(2 * scopes);
    for (let i = 0; i < scopes; i += 1) expect(ran.get(`new-${i}`)).toEqual([`mid-${i}`]);
    expect([...ran.keys()].filter((id) => id.startsWith('mid-'))).toEqual([]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
    expect(runtime.stats().outcomes).toMatchObject({ completed: 2 * scopes, superseded: scopes });
    // 30,000 dispatches under fake timers: a loaded 2-core machine needs more than the default 20 s.
  }, 60_000);

  it('supersedes a delivery whose handler has not started yet, even while it takes a free lock', async () => {
    const { runtime, adapter } = setup({ concurrency: 'queue' });
    const calls: { id: string; skipped: string[] }[] = [];
    runtime.onMessage((ctx) => {
      calls.push({ id: ctx.event.id, skipped: ctx.skipped.map((e) => e.id) });
    });
    const a = await adapter.send({ id: 'a', thread: 't' });
    const b = await adapter.send({ id: 'b', thread: 't' }); // same tick: a has not started
    expect(await settledOutcome(a)).toBe('superseded');
    expect(await settledOutcome(b)).toBe('completed');
    expect(calls).toEqual([{ id: 'b', skipped: ['a'] }]);
  });

  it('ends a parked waiter with timed-out at its detach timeout and releases its slot', async () => {
    const { runtime, adapter } = setup({ concurrency: 'queue', detachTimeoutMs: 1000 });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    await adapter.send({ thread: 't' });
    await vi.advanceTimersByTimeAsync(500);
    const waiter = await adapter.send({ thread: 't' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settledOutcome(waiter)).toBe('timed-out');
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 1, parked: 0 });
    hold.resolve();
  });

  it('ends a parked waiter with shutdown at once when shutdown starts', async () => {
    const { runtime, adapter } = setup({ concurrency: 'queue' });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const running = await adapter.send({ thread: 't' });
    await flush();
    const waiter = await adapter.send({ thread: 't' });
    const stopping = runtime.shutdown({ graceMs: 60_000 });
    expect(await settledOutcome(waiter)).toBe('shutdown');
    hold.resolve();
    await stopping;
    expect(await settledOutcome(running)).toBe('completed');
  });

  it('works under sync dispatch: the superseded call returns superseded', async () => {
    const { runtime, adapter } = setup({ concurrency: 'queue', dispatchMode: 'sync' });
    const hold = deferred();
    runtime.onMessage(async (ctx) => {
      if (ctx.event.id === 'one') await hold.promise;
      return ctx.skipped.map((e) => e.id);
    });
    const one = adapter.send({ id: 'one', thread: 't' });
    await flush();
    const two = adapter.send({ id: 'two', thread: 't' });
    await flush();
    const three = adapter.send({ id: 'three', thread: 't' });
    await expect(two).resolves.toMatchObject({ status: 'completed', outcome: 'superseded' });
    hold.resolve();
    await expect(one).resolves.toMatchObject({ outcome: 'completed', response: [] });
    await vi.advanceTimersByTimeAsync(0);
    await expect(three).resolves.toMatchObject({ outcome: 'completed', response: ['two'] });
  });
});
