import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Observation } from '../observe/observation.js';
import type { Lease } from '../state/state.js';
import { setup } from '../test-support/setup.js';
import { deferred, flush, outcomeNow, settledOf } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';

/** A TestState whose acquireLock/releaseLock wait for the test to let each call through. */
class SlowLockState extends TestState {
  slowAcquire = false;
  slowRelease = false;
  readonly acquires: { resolve: () => void }[] = [];
  readonly releases: { resolve: () => void }[] = [];

  override async acquireLock(key: string, ttlMs: number): Promise<Lease | null> {
    if (this.slowAcquire) {
      const gate = deferred();
      this.acquires.push(gate);
      await gate.promise;
    }
    return super.acquireLock(key, ttlMs);
  }

  override async releaseLock(lease: Lease): Promise<boolean> {
    if (this.slowRelease) {
      const gate = deferred();
      this.releases.push(gate);
      await gate.promise;
    }
    return super.releaseLock(lease);
  }
}

/** Types of the observations emitted after the first one of type `type`. */
function after(observations: Observation[], type: Observation['type']): string[] {
  const index = observations.findIndex((o) => o.type === type);
  return index < 0 ? [] : observations.slice(index + 1).map((o) => o.type);
}

describe('shutdown with slow lock I/O', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  for (const strategy of ['drop', 'queue'] as const) {
    it(`keeps the outcome of a ${strategy} handler that finished while its lock release is still in flight`, async () => {
      const state = new SlowLockState();
      const { runtime, adapter, ofType } = setup({ state, concurrency: strategy });
      runtime.onMessage(async (ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ctx.signal.throwIfAborted();
      });
      state.slowRelease = true;
      const accepted = await adapter.send();
      await vi.advanceTimersByTimeAsync(20);
      expect(state.releases).toHaveLength(1);
      let done = false;
      const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 100 }).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(done).toBe(true);
      await stopping;
      expect(ofType('dispatch_finished')).toMatchObject([{ outcome: 'completed' }]);
      expect(runtime.stats().outcomes).toMatchObject({ completed: 1, shutdown: 0 });
      state.releases[0]!.resolve();
      expect((await settledOf(accepted)).outcome).toBe('completed');
      expect(runtime.stats().detachedInFlight).toBe(0);
    });
  }

  it('records a handler that returns during the grace period at once, not after its slow release', async () => {
    const state = new SlowLockState();
    const { runtime, adapter, observations } = setup({ state, concurrency: 'queue' });
    const hold = deferred();
    const started = deferred();
    runtime.onMessage(async () => {
      started.resolve();
      await hold.promise;
    });
    state.slowRelease = true;
    const accepted = await adapter.send();
    await started.promise;
    const stopping = runtime.shutdown({ graceMs: 1_000, abandonAfterMs: 100 });
    await vi.advanceTimersByTimeAsync(10);
    hold.resolve();
    await flush();
    expect(observations.filter((o) => o.type === 'dispatch_finished')).toMatchObject([
      { outcome: 'completed' },
    ]);
    await vi.advanceTimersByTimeAsync(100); // the lock I/O budget
    await stopping;
    state.releases[0]!.resolve();
    expect((await settledOf(accepted)).outcome).toBe('completed');
  });

  it('gives every member of a burst batch the batch outcome while the batch lock release is in flight', async () => {
    const state = new SlowLockState();
    const { runtime, adapter } = setup({
      state,
      concurrency: { strategy: 'burst', burstWindowMs: 50 },
    });
    let batch = 0;
    runtime.onMessage((ctx) => {
      batch = ctx.batch.length;
    });
    state.slowRelease = true;
    const members = [await adapter.send({ thread: 'b' }), await adapter.send({ thread: 'b' })];
    await vi.advanceTimersByTimeAsync(50);
    expect(batch).toBe(2);
    expect(state.releases).toHaveLength(1);
    const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 100 });
    await vi.advanceTimersByTimeAsync(1_000);
    await stopping;
    expect(runtime.stats().outcomes).toMatchObject({ completed: 2, shutdown: 0 });
    state.releases[0]!.resolve();
    for (const member of members) expect((await settledOf(member)).outcome).toBe('completed');
  });

  it('still abandons a handler that is running at the abandon deadline', async () => {
    const { runtime, adapter } = setup({ concurrency: 'queue' });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const accepted = await adapter.send();
    const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 100 });
    await vi.advanceTimersByTimeAsync(200);
    await stopping;
    expect((await settledOf(accepted)).outcome).toBe('shutdown');
    hold.resolve();
  });

  it('ends drop deliveries still acquiring their lock with shutdown at once, with no lock_conflict after', async () => {
    const state = new SlowLockState();
    const { runtime, adapter, observations } = setup({ state, concurrency: 'drop' });
    let ran = 0;
    runtime.onMessage(() => {
      ran += 1;
    });
    state.slowAcquire = true;
    const first = await adapter.send({ thread: 'same' });
    const second = await adapter.send({ thread: 'same' });
    await flush();
    expect(state.acquires).toHaveLength(2);
    const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 100 });
    await flush();
    expect(await outcomeNow(first)).toBe('shutdown');
    expect(await outcomeNow(second)).toBe('shutdown');
    // The State answers late: one lease, one conflict. Neither may be observed or run a handler.
    for (const gate of state.acquires) gate.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    await stopping;
    expect(ran).toBe(0);
    expect(observations.filter((o) => o.type === 'lock_conflict')).toEqual([]);
    expect(after(observations, 'shutdown_finished')).toEqual([]);
    expect(state.locks.size).toBe(0);
    expect(runtime.stats().outcomes).toMatchObject({ shutdown: 2 });
    expect(runtime.stats().detachedInFlight).toBe(0);
  });

  it('emits nothing after shutdown_finished even when a late acquire answers after it', async () => {
    const state = new SlowLockState();
    const { runtime, adapter, observations } = setup({ state, concurrency: 'drop' });
    runtime.onMessage(() => {});
    state.slowAcquire = true;
    await adapter.send({ thread: 'a' });
    await adapter.send({ thread: 'a' });
    await flush();
    const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 100 });
    await vi.advanceTimersByTimeAsync(1_000);
    await stopping;
    expect(observations.at(-1)?.type).toBe('shutdown_finished');
    state.faults.releaseLock = () => new Error('down');
    for (const gate of state.acquires) gate.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(after(observations, 'shutdown_finished')).toEqual([]);
  });
});

describe('shutdown during a State outage', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('ends a drop delivery retrying its lock with shutdown at once and never starts its handler', async () => {
    const { runtime, adapter, state } = setup({ concurrency: 'drop', detachTimeoutMs: 60_000 });
    let ran = 0;
    runtime.onMessage(() => {
      ran += 1;
    });
    state.faults.acquireLock = () => new Error('down');
    const accepted = await adapter.send();
    await vi.advanceTimersByTimeAsync(500);
    const stopping = runtime.shutdown({ graceMs: 10_000, abandonAfterMs: 5_000 });
    await flush();
    expect(await outcomeNow(accepted)).toBe('shutdown');
    state.faults.acquireLock = undefined; // the State recovers during the grace period
    await vi.advanceTimersByTimeAsync(20_000);
    await stopping;
    expect(ran).toBe(0);
    expect(runtime.stats().detachedInFlight).toBe(0);
  });
});
