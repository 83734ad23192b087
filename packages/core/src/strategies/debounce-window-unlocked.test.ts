import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, settledOf } from '../test-support/test-adapter.js';

describe('debounce: a quiet window restarted while waiting for the lock', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs without the Thread Lock held, then takes it again for the survivor', async () => {
    const { runtime, adapter, state } = setup({
      concurrency: { strategy: 'debounce', debounceMs: 100 },
    });
    const gate = deferred();
    const calls: { id: string; skipped: string[] }[] = [];
    runtime.onMessage(async (ctx) => {
      calls.push({ id: ctx.event.id, skipped: ctx.skipped.map((event) => event.id) });
      if (ctx.event.id === 'x') await gate.promise;
    });
    const x = settledOf(await adapter.send({ id: 'x', thread: 't' }));
    await vi.advanceTimersByTimeAsync(200); // x runs from t=100 and holds the lock
    const a = settledOf(await adapter.send({ id: 'a', thread: 't' }));
    await vi.advanceTimersByTimeAsync(150); // a's window ended at t=300: it waits for the lock
    const b = settledOf(await adapter.send({ id: 'b', thread: 't' })); // window until t=450
    expect(await a).toMatchObject({ outcome: 'superseded' });
    await vi.advanceTimersByTimeAsync(50);
    gate.resolve(); // x releases at t=400; the waiter takes the lock and finds b's window open
    await vi.advanceTimersByTimeAsync(20);
    expect(await x).toMatchObject({ outcome: 'completed' });
    expect(state.locks.size).toBe(0);
    expect(calls.map((call) => call.id)).toEqual(['x']);

    await vi.advanceTimersByTimeAsync(100);
    expect(await b).toMatchObject({ outcome: 'completed' });
    expect(calls).toEqual([
      { id: 'x', skipped: [] },
      { id: 'b', skipped: ['a'] },
    ]);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
  });
});
