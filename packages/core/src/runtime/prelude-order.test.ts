import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Adapter } from '../adapter/adapter.js';
import { setup } from '../test-support/setup.js';
import { createTestAdapter, deferred } from '../test-support/test-adapter.js';

const failingScope = (event: { channel?: string }) => event.channel ?? '';

describe('prelude order around the lock scope (docs/contract.md §3)', () => {
  it('answers unrouted before computing the lock scope', async () => {
    const { runtime, adapter, ofType } = setup({ lockScope: failingScope });
    runtime.onMention(() => {});
    await expect(adapter.send({ kind: 'reaction', channel: undefined })).resolves.toEqual({
      status: 'unrouted',
    });
    expect(ofType('dispatch_finished')).toMatchObject([{ outcome: 'unrouted' }]);
  });

  it('rejects with reason shutdown before computing the lock scope', async () => {
    const { runtime, adapter } = setup({ lockScope: failingScope });
    runtime.onMessage(() => {});
    void runtime.shutdown();
    await expect(adapter.send({ channel: undefined })).rejects.toMatchObject({
      code: 'RT_ADMISSION_REJECTED',
      reason: 'shutdown',
    });
  });
});

describe('per-tenant keys', () => {
  it('cannot collide across adapter and tenant names that contain a colon', async () => {
    const other = createTestAdapter({ name: 'test:x' });
    const { runtime, adapter } = setup({ adapters: [other], maxDetachedPerTenant: 1 });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    // Adapter "test" with tenant "x:y" and adapter "test:x" with tenant "y" are different tenants.
    await expect(adapter.send({ tenant: 'x:y' })).resolves.toMatchObject({ status: 'accepted' });
    await expect(other.send({ tenant: 'y' })).resolves.toMatchObject({ status: 'accepted' });
    expect(Object.keys(runtime.stats().perTenantInFlight).sort()).toEqual([
      'test%3Ax:y',
      'test:x%3Ay',
    ]);
    hold.resolve();
  });
});

describe('stopping adapters at shutdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function adapterWithStop(name: string, stop: () => Promise<void>): Adapter {
    const adapter = createTestAdapter({ name });
    adapter.stop = stop;
    return adapter;
  }

  it('observes a stop() that fails and still finishes shutdown', async () => {
    const boom = new Error('socket close failed');
    const failing = adapterWithStop('failing', () => Promise.reject(boom));
    const { runtime, ofType } = setup({ adapters: [failing] });
    await runtime.shutdown({ graceMs: 0, abandonAfterMs: 0 });
    expect(ofType('adapter_notice')).toMatchObject([
      { adapter: 'failing', name: 'stop_failed', error: boom },
    ]);
    expect(ofType('shutdown_finished')).toHaveLength(1);
  });

  it('stops waiting for a stop() that never settles after grace plus abandon time', async () => {
    const hung = adapterWithStop('hung', () => new Promise<void>(() => {}));
    const { runtime, ofType } = setup({ adapters: [hung] });
    let done = false;
    const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 200 }).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    expect(ofType('adapter_notice')).toMatchObject([{ adapter: 'hung', name: 'stop_timed_out' }]);
  });

  it('drains adapters after the last outcome is recorded, and observes a drain that fails', async () => {
    const order: string[] = [];
    const draining: Adapter = Object.assign(createTestAdapter({ name: 'draining' }), {
      drain: async () => {
        order.push('drain');
        throw new Error('follow-up failed');
      },
    });
    const { runtime, adapter, ofType } = setup({ adapters: [draining] });
    const hold = deferred();
    const started = deferred();
    runtime.onMessage(async () => {
      started.resolve();
      await hold.promise;
      order.push('handler finished');
    });
    await adapter.send();
    await started.promise;
    const stopping = runtime.shutdown({ graceMs: 1_000 });
    await vi.advanceTimersByTimeAsync(10);
    expect(order).toEqual([]);
    hold.resolve();
    await stopping;
    expect(order).toEqual(['handler finished', 'drain']);
    expect(ofType('adapter_notice')).toMatchObject([{ adapter: 'draining', name: 'drain_failed' }]);
  });
});
