import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ShutdownError } from '../errors.js';
import { setup } from '../test-support/setup.js';
import { deferred, flush, settledOf } from '../test-support/test-adapter.js';

describe('shutdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('returns the same promise when called twice', () => {
    const { runtime } = setup();
    const first = runtime.shutdown();
    expect(runtime.shutdown({ graceMs: 1 })).toBe(first);
  });

  it('lets running handlers finish within the grace period', async () => {
    const { runtime, adapter } = setup();
    const hold = deferred();
    const started = deferred();
    runtime.onMessage(() => {
      started.resolve();
      return hold.promise;
    });
    const accepted = await adapter.send();
    await started.promise;
    let done = false;
    const stopping = runtime.shutdown({ graceMs: 1000 }).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(done).toBe(false);
    hold.resolve();
    await stopping;
    expect((await settledOf(accepted)).outcome).toBe('completed');
  });

  it('aborts running handlers with ShutdownError at the grace deadline and waits for them', async () => {
    const { runtime, adapter } = setup();
    let reason: unknown;
    const cleanup = deferred();
    const started = deferred();
    runtime.onMessage(async (ctx) => {
      started.resolve();
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
          resolve();
        }),
      );
      await cleanup.promise; // cleanup after abort still holds the delivery
    });
    const accepted = await adapter.send();
    await started.promise;
    let done = false;
    const stopping = runtime.shutdown({ graceMs: 1000 }).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(reason).toBeInstanceOf(ShutdownError);
    expect(done).toBe(false);
    cleanup.resolve();
    await stopping;
    expect((await settledOf(accepted)).outcome).toBe('shutdown');
    expect(runtime.stats().detachedInFlight).toBe(0);
  });

  it('ends waiting deliveries with outcome shutdown at once, releasing their slots', async () => {
    const { runtime, adapter } = setup({
      concurrency: { strategy: 'concurrent', maxConcurrent: 1 },
    });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const running = await adapter.send({ thread: 'x' });
    const waiting = await adapter.send({ thread: 'x' });
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 2, parked: 1 });
    void runtime.shutdown({ graceMs: 10_000 });
    await flush();
    expect((await settledOf(waiting)).outcome).toBe('shutdown');
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 1, parked: 0 });
    hold.resolve();
    expect((await settledOf(running)).outcome).toBe('completed');
  });

  it('stops adapters after admission has closed', async () => {
    const { runtime, adapter } = setup();
    runtime.onMessage(() => {});
    let rejectedDuringStop: unknown;
    adapter.stop = async () => {
      rejectedDuringStop = await adapter.send().catch((error: unknown) => error);
    };
    await runtime.shutdown();
    expect(rejectedDuringStop).toMatchObject({ reason: 'shutdown' });
  });

  it('waits for a delivery whose dedupe mark was in flight when shutdown started, and never starts its handler', async () => {
    const { runtime, adapter, state } = setup();
    const markGate = deferred();
    const realMark = state.markEvent.bind(state);
    state.markEvent = async (key, ttl) => {
      await markGate.promise;
      return realMark(key, ttl);
    };
    let handled = false;
    runtime.onMessage(() => {
      handled = true;
    });
    const pending = adapter.send();
    await flush();
    let done = false;
    const stopping = runtime.shutdown().then(() => {
      done = true;
    });
    await flush();
    expect(done).toBe(false);
    markGate.resolve();
    const result = await pending;
    expect(result.status).toBe('accepted');
    expect((await settledOf(result)).outcome).toBe('shutdown');
    await stopping;
    expect(handled).toBe(false);
    expect(runtime.stats().outcomes).toMatchObject({ completed: 0, shutdown: 1 });
  });

  it('abandons a handler that ignores its signal after abandonAfterMs, recording shutdown once', async () => {
    const { runtime, adapter, ofType } = setup();
    const never = deferred();
    const started = deferred();
    runtime.onMessage(() => {
      started.resolve();
      return never.promise;
    });
    const accepted = await adapter.send();
    await started.promise;
    let done = false;
    const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 200 }).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    // The abandoned handler still runs: its slot stays held until its promise settles.
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 1 });
    expect(runtime.stats().outcomes.shutdown).toBe(1);
    never.resolve(); // a late end is ignored: no second outcome
    expect(accepted.status).toBe('accepted');
    expect((await settledOf(accepted)).outcome).toBe('shutdown');
    expect(runtime.stats()).toMatchObject({ detachedInFlight: 0 });
    expect(ofType('dispatch_finished')).toHaveLength(1);
    expect(runtime.stats().outcomes.completed).toBe(0);
  });

  it('rejects a negative graceMs', async () => {
    const { runtime } = setup();
    await expect(runtime.shutdown({ graceMs: -1 })).rejects.toThrow(RangeError);
    expect(runtime.stats().shuttingDown).toBe(false);
  });

  it('rejects start() after shutdown and resolves with nothing in flight', async () => {
    const { runtime } = setup();
    await runtime.shutdown();
    await expect(runtime.start()).rejects.toBeInstanceOf(ShutdownError);
    expect(runtime.stats().shuttingDown).toBe(true);
  });
});
