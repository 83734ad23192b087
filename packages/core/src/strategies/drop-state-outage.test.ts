import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { settledOf } from '../test-support/test-adapter.js';

describe('drop strategy during a State outage', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('retries a failing lock acquisition and runs the accepted delivery once the State answers', async () => {
    const { runtime, adapter, state, ofType } = setup({
      concurrency: 'drop',
      detachTimeoutMs: 60_000,
    });
    let calls = 0;
    runtime.onMessage(() => {
      calls += 1;
    });
    let failures = 3;
    state.faults.acquireLock = () => (failures-- > 0 ? new Error('down') : undefined);
    const settled = settledOf(await adapter.send());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await settled).toMatchObject({ outcome: 'completed' });
    expect(calls).toBe(1);
    expect(ofType('state_error')).toHaveLength(3);
    expect(ofType('state_error')[0]).toMatchObject({ operation: 'acquireLock' });
    expect(runtime.stats().detachedInFlight).toBe(0);
    expect(state.locks.size).toBe(0);
  });

  it('ends timed-out at the detach timeout when the State never answers, and frees the slot', async () => {
    const { runtime, adapter, state } = setup({ concurrency: 'drop', detachTimeoutMs: 5_000 });
    let calls = 0;
    runtime.onMessage(() => {
      calls += 1;
    });
    state.faults.acquireLock = () => new Error('down');
    const settled = settledOf(await adapter.send());
    expect(runtime.stats().detachedInFlight).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await settled).toMatchObject({ outcome: 'timed-out' });
    expect(calls).toBe(0);
    expect(runtime.stats().detachedInFlight).toBe(0);
  });

  it('backs off between attempts instead of hammering the State', async () => {
    const { adapter, state, runtime } = setup({
      detachTimeoutMs: 10_000,
      concurrency: { strategy: 'drop' },
    });
    runtime.onMessage(() => {});
    state.faults.acquireLock = () => new Error('down');
    const settled = settledOf(await adapter.send());
    await vi.advanceTimersByTimeAsync(10_000);
    await settled;
    const attempts = state.calls.filter((call) => call.startsWith('acquireLock')).length;
    // Capped exponential back-off: a handful of attempts in 10 s, not thousands.
    expect(attempts).toBeGreaterThan(2);
    expect(attempts).toBeLessThan(60);
  });

  it('still drops at once when the lock is held, without retrying', async () => {
    const { runtime, adapter, state } = setup({ concurrency: 'drop' });
    let release!: () => void;
    runtime.onMessage(() => new Promise<void>((resolve) => (release = resolve)));
    const first = settledOf(await adapter.send({ thread: 'th' }));
    const second = settledOf(await adapter.send({ thread: 'th' }));
    expect(await second).toMatchObject({ outcome: 'dropped' });
    expect(state.calls.filter((call) => call.startsWith('acquireLock'))).toHaveLength(2);
    release();
    expect(await first).toMatchObject({ outcome: 'completed' });
  });
});
