import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PreemptedError } from '../errors.js';
import type { ConcurrencyOptions } from '../runtime/options.js';
import type { Runtime } from '../runtime/runtime-types.js';
import type { Lease } from '../state/state.js';
import { setup } from '../test-support/setup.js';
import { deferred, settledOf } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';

/** Registers a message handler that runs until its signal aborts; `reason` is the abort's. */
function runUntilAborted(runtime: Runtime): { readonly reason: unknown } {
  const seen: { reason: unknown } = { reason: undefined };
  runtime.onMessage(
    (ctx) =>
      new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          seen.reason = ctx.signal.reason;
          resolve();
        }),
      ),
  );
  return seen;
}

/** A TestState whose renewals wait for the test to answer them (`answers`, in call order). */
class SlowRenewalState extends TestState {
  readonly answers: ((renewed: boolean) => void)[] = [];

  override async renewLock(lease: Lease, ttlMs: number): Promise<boolean> {
    const answered = deferred<boolean>();
    this.answers.push(answered.resolve);
    const renewed = await answered.promise;
    return renewed && super.renewLock(lease, ttlMs);
  }
}

describe('lease renewal and lease-loss cancellation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('renews every third of lockTtlMs while the handler runs, and releases afterwards', async () => {
    const { runtime, adapter, state } = setup({ lockTtlMs: 3000 });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const result = await adapter.send({ thread: 't' });
    await vi.advanceTimersByTimeAsync(10_000);
    const renewals = state.calls.filter((c) => c.startsWith('renewLock')).length;
    expect(renewals).toBe(10);
    hold.resolve();
    expect((await settledOf(result)).outcome).toBe('completed');
    expect(state.locks.size).toBe(0);
    const before = state.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.calls.length).toBe(before); // renewal stopped
  });

  it('aborts the handler with PreemptedError when a renewal returns false, and never releases the successor', async () => {
    const { runtime, adapter, state, ofType } = setup({ lockTtlMs: 3000 });
    let reason: unknown;
    const cleanup = deferred();
    runtime.onMessage(async (ctx) => {
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
          resolve();
        }),
      );
      await cleanup.promise;
    });
    const result = await adapter.send({ thread: 't' });
    // Another holder takes over the key (our lease was lost at the State).
    const successor = { token: 'successor', fence: 99, expiresAt: Date.now() + 60_000 };
    state.locks.set('test:T1:C1:t', successor);
    await vi.advanceTimersByTimeAsync(1000);
    expect(reason).toBeInstanceOf(PreemptedError);
    expect(ofType('lease_lost')).toMatchObject([{ lockKey: 'test:T1:C1:t' }]);
    cleanup.resolve();
    expect((await settledOf(result)).outcome).toBe('preempted');
    expect(state.locks.get('test:T1:C1:t')).toBe(successor);
    expect(state.calls.filter((c) => c.startsWith('releaseLock'))).toEqual([]);
  });

  it('declares the lease lost when renewals keep failing until it expires', async () => {
    const { runtime, adapter, state, ofType } = setup({ lockTtlMs: 3000 });
    const aborted = runUntilAborted(runtime);
    state.faults.renewLock = () => new Error('timeout');
    const result = await adapter.send({ thread: 't' });
    await vi.advanceTimersByTimeAsync(2999);
    expect(aborted.reason).toBeUndefined();
    expect(ofType('state_error').map((o) => o.operation)).toEqual(['renewLock', 'renewLock']);
    await vi.advanceTimersByTimeAsync(1);
    expect(aborted.reason).toMatchObject({ code: 'RT_PREEMPTED' });
    expect((await settledOf(result)).outcome).toBe('preempted');
  });

  it('loses a lease at its local expiry while a renewal is still in flight, and ignores the late answer', async () => {
    const state = new SlowRenewalState();
    const { runtime, adapter, ofType } = setup({ lockTtlMs: 3000, state });
    const aborted = runUntilAborted(runtime);
    const result = await adapter.send({ thread: 't' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.answers).toHaveLength(1); // the renewal went out at a third of the TTL
    await vi.advanceTimersByTimeAsync(1999);
    expect(aborted.reason).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(aborted.reason).toMatchObject({ code: 'RT_PREEMPTED' });
    expect(ofType('lease_lost')).toHaveLength(1);
    expect((await settledOf(result)).outcome).toBe('preempted');
    state.answers[0]!(true);
    await vi.advanceTimersByTimeAsync(10_000);
    // No second renewal: the lost lease's timer was not re-armed by the late answer.
    expect(state.calls.filter((c) => c.startsWith('renewLock'))).toHaveLength(1);
    expect(state.calls.filter((c) => c.startsWith('releaseLock'))).toEqual([]);
  });

  it('counts a late renewal from when it was asked, and renews again a third of the TTL after its answer', async () => {
    const state = new SlowRenewalState();
    const { runtime, adapter, ofType } = setup({ lockTtlMs: 3000, state });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const result = await adapter.send({ thread: 't' });
    await vi.advanceTimersByTimeAsync(1000); // asked at t = 1000
    await vi.advanceTimersByTimeAsync(1500);
    state.answers[0]!(true); // answered at t = 2500: the lease now runs to 1000 + 3000 = 4000
    await vi.advanceTimersByTimeAsync(999);
    expect(state.answers).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1); // t = 3500: a third of the TTL after the answer
    expect(state.answers).toHaveLength(2);
    state.answers[1]!(true); // asked and answered at t = 3500: runs to 6500
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.answers).toHaveLength(3);
    state.answers[2]!(true);
    hold.resolve();
    expect((await settledOf(result)).outcome).toBe('completed');
    expect(ofType('lease_lost')).toEqual([]);
  });

  it('exposes a fence that increases for each new holder of the key', async () => {
    const { runtime, adapter } = setup();
    const fences: number[] = [];
    runtime.onMessage((ctx) => void fences.push(ctx.lock!.fence));
    for (let i = 0; i < 3; i += 1) {
      const r = await adapter.send({ thread: 't' });
      await settledOf(r);
    }
    expect(fences).toHaveLength(3);
    expect(fences[0]!).toBeLessThan(fences[1]!);
    expect(fences[1]!).toBeLessThan(fences[2]!);
  });

  it.each<[string, ConcurrencyOptions, number]>([
    ['queue', { strategy: 'queue' }, 0],
    ['debounce', { strategy: 'debounce', debounceMs: 100 }, 100],
    ['burst', { strategy: 'burst', burstWindowMs: 100 }, 100],
  ])(
    'preempts a %s handler whose lease is lost with PreemptedError on ctx.signal, and neither it nor the next delivery touches the successor',
    async (_name, concurrency, startAfterMs) => {
      const { runtime, adapter, state, ofType } = setup({ lockTtlMs: 3000, concurrency });
      let reason: unknown;
      let fence: number | undefined;
      const ran: string[] = [];
      const cleanup = deferred();
      runtime.onMessage(async (ctx) => {
        ran.push(ctx.event.id);
        if (ctx.event.id === 'next') return;
        fence = ctx.lock?.fence;
        await new Promise<void>((resolve) =>
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
            resolve();
          }),
        );
        await cleanup.promise;
      });
      const result = await adapter.send({ id: 'first', thread: 't' });
      await vi.advanceTimersByTimeAsync(startAfterMs);
      expect(ran).toEqual(['first']);
      // Another holder takes over the key (our lease was lost at the State).
      const successor = { token: 'successor', fence: 99, expiresAt: Date.now() + 60_000 };
      state.locks.set('test:T1:C1:t', successor);
      await vi.advanceTimersByTimeAsync(1000); // the first renewal is refused
      expect(reason).toBeInstanceOf(PreemptedError);
      expect(ofType('lease_lost')).toMatchObject([{ lockKey: 'test:T1:C1:t', fence }]);
      const next = await adapter.send({ id: 'next', thread: 't' });
      // The preempted handler has not settled: its delivery keeps its slot until it does.
      expect(runtime.stats().detachedInFlight).toBe(2);
      cleanup.resolve();
      expect(await settledOf(result)).toMatchObject({ outcome: 'preempted', error: reason });
      expect(state.calls.filter((c) => c.startsWith('releaseLock'))).toEqual([]);

      // The next delivery waits for the successor instead of running over it.
      await vi.advanceTimersByTimeAsync(10_000);
      expect(ran).toEqual(['first']);
      expect(state.locks.get('test:T1:C1:t')).toBe(successor);
      state.locks.delete('test:T1:C1:t'); // the successor releases (on another instance)
      await vi.advanceTimersByTimeAsync(2000); // lockPollMaxMs
      expect(ran).toEqual(['first', 'next']);
      expect((await settledOf(next)).outcome).toBe('completed');
      expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, parked: 0 });
    },
  );
});
