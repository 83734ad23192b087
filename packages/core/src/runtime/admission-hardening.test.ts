import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdmissionRejectedError, PreludeError } from '../errors.js';
import { setup } from '../test-support/setup.js';
import { deferred, flush, makeEvent, settledOf } from '../test-support/test-adapter.js';

describe('admission bound hardening', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('releases the slot, marks nothing and surfaces PreludeError when markEvent throws', async () => {
    const { runtime, state, adapter, ofType } = setup({ maxDetached: 1 });
    runtime.onMessage(() => {});
    const boom = new Error('state down');
    state.faults.markEvent = () => boom;

    const failed = adapter.send();
    await expect(failed).rejects.toBeInstanceOf(PreludeError);
    await expect(failed).rejects.toMatchObject({ code: 'RT_PRELUDE', cause: boom });
    expect(runtime.stats().detachedInFlight).toBe(0);
    expect(state.marks.size).toBe(0);
    expect(ofType('prelude_error')).toHaveLength(1);
    expect(runtime.stats().outcomes['prelude-error']).toBe(1);

    // The single slot is free again: the next delivery is admitted.
    state.faults.markEvent = undefined;
    await expect(adapter.send()).resolves.toMatchObject({ status: 'accepted' });
  });

  it('holds the slot until the handler settles, even past detachTimeoutMs when the signal is ignored', async () => {
    const { runtime, adapter } = setup({ maxDetached: 1, detachTimeoutMs: 1000 });
    const release = deferred();
    let aborted: unknown;
    runtime.onMessage(async (ctx) => {
      ctx.signal.addEventListener('abort', () => {
        aborted = ctx.signal.reason;
      });
      await release.promise; // ignores its signal
    });

    const first = await adapter.send();
    expect(first.status).toBe('accepted');
    await vi.advanceTimersByTimeAsync(5000);
    expect(aborted).toMatchObject({ code: 'RT_DETACH_TIMEOUT' });
    expect(runtime.stats().detachedInFlight).toBe(1);
    await expect(adapter.send()).rejects.toMatchObject({ reason: 'capacity' });

    release.resolve();
    const finished = await (first as Extract<typeof first, { status: 'accepted' }>).settled;
    expect(finished.outcome).toBe('timed-out');
    expect(runtime.stats().detachedInFlight).toBe(0);
    await expect(adapter.send()).resolves.toMatchObject({ status: 'accepted' });
  });

  it('closes admission for deferred and sync dispatch at once when shutdown starts', async () => {
    const { runtime, adapter, ofType } = setup({}, { shapeModes: { modal: 'sync' } });
    runtime.onMessage(() => {});
    void runtime.shutdown();

    const deferredOne = adapter.send({ shape: 'message' });
    const syncOne = adapter.send({ shape: 'modal' });
    await expect(deferredOne).rejects.toMatchObject({ reason: 'shutdown' });
    await expect(syncOne).rejects.toBeInstanceOf(AdmissionRejectedError);
    await expect(syncOne).rejects.toMatchObject({
      reason: 'shutdown',
      adapter: 'test',
      tenant: 'T1',
    });
    expect(ofType('admission_rejected').map((o) => [o.reason, o.mode])).toEqual([
      ['shutdown', 'deferred'],
      ['shutdown', 'sync'],
    ]);
  });

  it('deletes per-tenant counters at zero: 10,000 tenants leave no entries', async () => {
    const { runtime, adapter } = setup({ maxDetached: 20_000, maxDetachedPerTenant: 2 });
    runtime.onMessage(() => {});
    const results = await Promise.all(
      Array.from({ length: 10_000 }, (_, i) => adapter.send({ tenant: `tenant-${i}` })),
    );
    expect(Object.keys(runtime.stats().perTenantInFlight).length).toBeGreaterThan(0);
    await Promise.all(
      results.map((r) => (r.status === 'accepted' ? r.settled : Promise.resolve())),
    );
    expect(runtime.stats().perTenantInFlight).toEqual({});
    expect(runtime.stats().detachedInFlight).toBe(0);
  });

  it('enforces the per-tenant ceiling without touching other tenants', async () => {
    const { runtime, adapter, state } = setup({ maxDetached: 10, maxDetachedPerTenant: 1 });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    await expect(adapter.send({ tenant: 'A' })).resolves.toMatchObject({ status: 'accepted' });
    const rejected = makeEvent({ adapter: 'test', tenant: 'A' });
    await expect(runtime.dispatch(rejected)).rejects.toMatchObject({
      reason: 'tenant-capacity',
      tenant: 'A',
    });
    await expect(adapter.send({ tenant: 'B' })).resolves.toMatchObject({ status: 'accepted' });
    expect(runtime.stats().perTenantInFlight).toEqual({ 'test:A': 1, 'test:B': 1 });
    expect(state.calls.filter((c) => c.includes(rejected.id))).toEqual([]);
    hold.resolve();
  });

  it('reports the high-water mark of detached deliveries, which stays after they finish', async () => {
    const { runtime, adapter } = setup({ maxDetached: 10 });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    expect(runtime.stats().detachedHighWater).toBe(0);
    const sent = [];
    for (const thread of ['a', 'b', 'c']) sent.push(await adapter.send({ thread }));
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 3, detachedHighWater: 3 });
    hold.resolve();
    for (const result of sent) await settledOf(result);
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0, detachedHighWater: 3 });
    await settledOf(await adapter.send({ thread: 'd' }));
    expect(runtime.stats().detachedHighWater).toBe(3);
  });

  it('never marks a rejected delivery: the same event after capacity frees is accepted, not duplicate', async () => {
    const { runtime, adapter, state } = setup({ maxDetached: 1 });
    const hold = deferred();
    let handled = 0;
    runtime.onMessage(async () => {
      handled += 1;
      await hold.promise;
    });
    const first = await adapter.send();
    const retried = makeEvent({ adapter: 'test' });
    await expect(runtime.dispatch(retried)).rejects.toMatchObject({ reason: 'capacity' });
    expect(state.marks.has(`event:test:T1:${retried.id}`)).toBe(false);
    expect(state.calls.some((c) => c.startsWith('markEvent') && c.endsWith(retried.id))).toBe(
      false,
    );

    hold.resolve();
    await settledOf(first);
    const again = await runtime.dispatch({ ...retried, retry: { attempt: 1 } });
    expect(again.status).toBe('accepted');
    await settledOf(again);
    expect(handled).toBe(2);
    await expect(runtime.dispatch(retried)).resolves.toEqual({ status: 'duplicate' });
  });

  it('never takes a slot for an unrouted delivery', async () => {
    const { runtime, adapter, state } = setup({ maxDetached: 1 });
    runtime.onCommand('deploy', () => {});
    await expect(adapter.send({ kind: 'message' })).resolves.toEqual({ status: 'unrouted' });
    expect(runtime.stats().detachedInFlight).toBe(0);
    expect(state.calls).toEqual([]);
  });

  it('releases the slot of a duplicate', async () => {
    const { runtime, adapter } = setup({ maxDetached: 1 });
    runtime.onMessage(() => {});
    const event = makeEvent({ adapter: 'test' });
    const first = await runtime.dispatch(event);
    await settledOf(first);
    await expect(runtime.dispatch(event)).resolves.toEqual({ status: 'duplicate' });
    expect(runtime.stats().detachedInFlight).toBe(0);
    await flush();
    await expect(adapter.send()).resolves.toMatchObject({ status: 'accepted' });
  });

  it('has no cap on sync dispatch', async () => {
    const { runtime, adapter } = setup({ maxDetached: 1, dispatchMode: 'sync' });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const pending = [adapter.send(), adapter.send(), adapter.send()];
    await flush();
    expect(runtime.stats().syncInFlight).toBe(3);
    expect(runtime.stats().detachedInFlight).toBe(0);
    hold.resolve();
    for (const result of await Promise.all(pending)) {
      expect(result).toMatchObject({ status: 'completed', outcome: 'completed' });
    }
  });
});
