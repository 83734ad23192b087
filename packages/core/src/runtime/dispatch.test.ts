import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidEventError } from '../errors.js';
import { setup } from '../test-support/setup.js';
import { createTestAdapter, deferred, makeEvent, settledOf } from '../test-support/test-adapter.js';

describe('dispatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the prelude in order: route, admission, then one dedupe mark', async () => {
    const { runtime, adapter, state, observations } = setup();
    runtime.onMessage(() => {});
    const result = await adapter.send({ id: 'E1' });
    expect(result.status).toBe('accepted');
    await settledOf(result);
    expect(state.calls.filter((c) => c.startsWith('markEvent'))).toEqual([
      'markEvent event:test:T1:E1',
    ]);
    expect(observations.map((o) => o.type)).toEqual(['dispatch_admitted', 'dispatch_finished']);
  });

  it("marks an event for its own dedupeTtlMs when it carries one, else for the runtime's", async () => {
    const { runtime, adapter, state } = setup({ dedupeTtlMs: 60_000 });
    runtime.onMessage(() => {});
    await settledOf(await adapter.send({ id: 'E-default' }));
    await settledOf(await adapter.send({ id: 'E-short', dedupeTtlMs: 5_000 }));
    const now = Date.now();
    expect(state.marks.get('event:test:T1:E-default')).toBe(now + 60_000);
    expect(state.marks.get('event:test:T1:E-short')).toBe(now + 5_000);
  });

  it('marks nothing for an event with dedupeTtlMs 0 and handles every receipt of it', async () => {
    const { runtime, adapter, state, ofType } = setup();
    let handled = 0;
    runtime.onMessage(() => {
      handled += 1;
    });
    for (let receipt = 0; receipt < 2; receipt += 1) {
      const result = await adapter.send({ id: 'E-keystroke', dedupeTtlMs: 0 });
      expect(result.status).toBe('accepted');
      await settledOf(result);
    }
    expect(handled).toBe(2);
    expect(state.calls.filter((c) => c.startsWith('markEvent'))).toEqual([]);
    expect(ofType('dispatch_finished').map((o) => o.outcome)).toEqual(['completed', 'completed']);
  });

  it('refuses an event whose dedupeTtlMs is not an integer >= 0', async () => {
    const { runtime, state } = setup();
    runtime.onMessage(() => {});
    for (const dedupeTtlMs of [-1, 1.5, Number.NaN, '10' as unknown as number]) {
      await expect(runtime.dispatch(makeEvent({ adapter: 'test', dedupeTtlMs }))).rejects.toThrow(
        /dedupeTtlMs/,
      );
    }
    expect(state.calls).toEqual([]);
  });

  it('reports unrouted deliveries with an outcome and no State call', async () => {
    const { runtime, adapter, state, ofType } = setup();
    await expect(adapter.send()).resolves.toEqual({ status: 'unrouted' });
    expect(state.calls).toEqual([]);
    expect(ofType('dispatch_finished')[0]?.outcome).toBe('unrouted');
    expect(runtime.stats().outcomes.unrouted).toBe(1);
  });

  it('rejects invalid events with InvalidEventError and counts nothing', async () => {
    const { runtime } = setup();
    runtime.onMessage(() => {});
    await expect(runtime.dispatch(makeEvent({ adapter: 'test', tenant: '' }))).rejects.toThrow(
      InvalidEventError,
    );
    await expect(runtime.dispatch(makeEvent({ adapter: 'test', id: '' }))).rejects.toThrow(/id/);
    await expect(runtime.dispatch(makeEvent({ adapter: 'nobody' }))).rejects.toThrow(
      /no adapter named "nobody"/,
    );
    await expect(runtime.dispatch(null as never)).rejects.toThrow(InvalidEventError);
    expect(runtime.stats().received).toBe(0);
  });

  it('refuses an event whose lock scope function fails, before marking it, as a prelude error', async () => {
    const { runtime, adapter, state, ofType } = setup({
      lockScope: (event) => (event.user === 'bad' ? '' : `user:${event.user}`),
    });
    runtime.onMessage(() => {});
    await expect(adapter.send({ user: 'bad' })).rejects.toMatchObject({
      code: 'RT_PRELUDE',
      cause: expect.any(TypeError),
    });
    expect(state.calls).toEqual([]);
    expect(runtime.stats()).toMatchObject({ received: 1, accepted: 0, detachedInFlight: 0 });
    expect(runtime.stats().outcomes['prelude-error']).toBe(1);
    expect(runtime.stats().outcomes.failed).toBe(0);
    expect(ofType('prelude_error')).toMatchObject([{ error: { code: 'RT_PRELUDE' } }]);
    expect(ofType('dispatch_finished')).toMatchObject([
      { outcome: 'prelude-error', error: { code: 'RT_PRELUDE' } },
    ]);
    await expect(adapter.send({ user: 'good' })).resolves.toMatchObject({ status: 'accepted' });
  });

  it('runs every matching handler in registration order; one failure does not stop the others', async () => {
    const { runtime, adapter } = setup({ dispatchMode: 'sync' });
    const order: string[] = [];
    const boom = new Error('first failed');
    runtime.onMessage(() => {
      order.push('a');
      throw boom;
    });
    runtime.onMessage('hel', () => {
      order.push('b');
      return { text: 'from b' };
    });
    runtime.onMessage(/^bye/, () => order.push('never'));
    runtime.onMessage(async () => {
      order.push('c');
      return { text: 'from c' };
    });
    const result = await adapter.send({ text: 'hello' });
    expect(order).toEqual(['a', 'b', 'c']);
    expect(result).toEqual({
      status: 'completed',
      outcome: 'failed',
      error: boom,
      response: undefined,
    });
  });

  it('returns the first defined handler value as the sync response', async () => {
    const { runtime, adapter } = setup({ dispatchMode: 'sync' });
    runtime.onMessage(() => undefined);
    runtime.onMessage(() => ({ response_action: 'clear' }));
    runtime.onMessage(() => 'ignored');
    await expect(adapter.send()).resolves.toEqual({
      status: 'completed',
      outcome: 'completed',
      response: { response_action: 'clear' },
    });
  });

  it('resolves the dispatch mode: runtime shape override > adapter shape > adapter default > runtime', async () => {
    const other = createTestAdapter({ name: 'other' });
    const { runtime, adapter } = setup(
      {
        adapters: [other],
        dispatchMode: 'deferred',
        dispatchModes: { test: { default: 'sync', shapes: { forced: 'deferred' } } },
      },
      { shapeModes: { modal: 'deferred', forced: 'sync' } },
    );
    const handle = adapter.runtime!;
    expect(handle.modeFor(makeEvent({ adapter: 'test', shape: 'plain' }))).toBe('sync');
    expect(handle.modeFor(makeEvent({ adapter: 'test', shape: 'modal' }))).toBe('deferred');
    expect(handle.modeFor(makeEvent({ adapter: 'test', shape: 'forced' }))).toBe('deferred');
    expect(handle.modeFor(makeEvent({ adapter: 'other', shape: 'plain' }))).toBe('deferred');
    runtime.onMessage(() => 'ok');
    await expect(adapter.send({ shape: 'plain' })).resolves.toMatchObject({ status: 'completed' });
    await expect(other.send({ shape: 'plain' })).resolves.toMatchObject({ status: 'accepted' });
  });

  it('gives the handler a context that replies through its adapter', async () => {
    const { runtime, adapter } = setup();
    const seen = deferred<unknown>();
    runtime.onMention(async (ctx) => {
      await ctx.reply('pong');
      await ctx.reply({ text: 'rich', extra: { blocks: [] } });
      seen.resolve({
        mode: ctx.mode,
        batch: ctx.batch.length,
        skipped: ctx.skipped.length,
        lock: ctx.lock,
      });
    });
    const result = await adapter.send({ kind: 'mention', thread: 'T-9' });
    await settledOf(result);
    expect(adapter.posted.map((p) => p.text)).toEqual(['pong', 'rich']);
    expect(await seen.promise).toMatchObject({
      mode: 'deferred',
      batch: 1,
      skipped: 0,
      lock: { key: 'test:T1:C1:T-9', fence: 1 },
    });
  });

  it('passes the handler signal to ctx.reply unless the handler gives its own', async () => {
    const { runtime, adapter } = setup();
    const own = new AbortController();
    const handlerSignal = deferred<AbortSignal>();
    runtime.onMention(async (ctx) => {
      handlerSignal.resolve(ctx.signal);
      await ctx.reply('default');
      await ctx.reply('own', { signal: own.signal });
    });
    await settledOf(await adapter.send({ kind: 'mention' }));
    expect(adapter.posted.map((p) => p.signal)).toEqual([await handlerSignal.promise, own.signal]);
  });

  it('aborts a sync handler with the adapter deadline signal and reports timed-out', async () => {
    const { runtime, adapter } = setup({ dispatchMode: 'sync' });
    runtime.onMessage(
      (ctx) =>
        new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
        ),
    );
    const deadline = new AbortController();
    const pending = adapter.send({}, { signal: deadline.signal });
    await vi.advanceTimersByTimeAsync(10);
    deadline.abort(new Error('ack deadline'));
    await expect(pending).resolves.toMatchObject({ status: 'completed', outcome: 'timed-out' });
  });

  it('contains observers that throw or reject', async () => {
    const errors: unknown[] = [];
    const { runtime, adapter } = setup({
      observers: [
        () => {
          throw new Error('sync observer');
        },
        async () => {
          throw new Error('async observer');
        },
      ],
      onObserverError: (error) => {
        errors.push(error);
        throw new Error('even the hook throws');
      },
    });
    runtime.onMessage(() => {});
    const result = await adapter.send();
    await settledOf(result);
    await vi.advanceTimersByTimeAsync(0);
    expect(runtime.stats().outcomes.completed).toBe(1);
    expect(runtime.stats().observerFailures).toBe(4);
    expect(errors).toHaveLength(4);
  });

  it('refuses duplicate adapter names and adapters added after start', async () => {
    const { runtime } = setup();
    expect(() => runtime.use(createTestAdapter({ name: 'test' }))).toThrow(/already registered/);
    await runtime.start();
    expect(() => runtime.use(createTestAdapter({ name: 'late' }))).toThrow(/before start/);
  });
});
