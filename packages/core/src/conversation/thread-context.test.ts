import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NotInThreadError,
  PreemptedError,
  StaleFenceError,
  StateCapabilityMissingError,
  StateUnavailableError,
  ThreadStateConflictError,
  ThreadStateSerializationError,
  ThreadStateTooLargeError,
  UnfencedWriteError,
} from '../errors.js';
import type { HandlerContext } from '../routing/handler.js';
import type { CreateRuntimeOptions } from '../runtime/options.js';
import { setup } from '../test-support/setup.js';
import { deferred, settledOf } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';
import { ThreadTestState } from '../test-support/test-thread-state.js';
import { THREAD_DEFAULTS } from './thread-options.js';

const THREAD = { channel: 'C1', thread: '100.1' } as const;
const KEY = 'test:T1:C1:100.1';

/** Runs `body` as the handler of one message in THREAD and resolves what it returned or threw. */
async function inHandler<T>(
  body: (ctx: HandlerContext) => Promise<T>,
  options: Partial<CreateRuntimeOptions> & { state?: TestState } = {},
) {
  const state = options.state ?? new ThreadTestState();
  const parts = setup({ ...options, state });
  let outcome: { value?: T; error?: unknown } = {};
  parts.runtime.onMessage(async (ctx) => {
    try {
      outcome = { value: await body(ctx) };
    } catch (error) {
      outcome = { error };
    }
  });
  await settledOf(await parts.adapter.send(THREAD));
  return { ...parts, state, outcome };
}

const writes = (state: TestState) => state.calls.filter((c) => c.startsWith('writeThreadState'));

describe('ctx.thread.state', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stores one JSON value per thread under the handler fence and reads it back', async () => {
    const { state, outcome } = await inHandler(async (ctx) => {
      expect(await ctx.thread.state.get()).toBeUndefined();
      await ctx.thread.state.set({ summary: 'hi', steps: [1, 2] });
      return await ctx.thread.state.get<{ summary: string }>();
    });
    expect(outcome.value).toEqual({ summary: 'hi', steps: [1, 2] });
    const record = (state as ThreadTestState).records.get(KEY);
    expect(record?.fence).toBe(1); // the lock's fence
    expect(record?.expiresAt).toBe(Date.now() + THREAD_DEFAULTS.stateTtlMs);
  });

  it('refuses a value over 16 KiB with ThreadStateTooLargeError before any State call', async () => {
    const { state, outcome } = await inHandler(
      (ctx) => ctx.thread.state.set({ text: 'é'.repeat(8_192) }), // 16 384 bytes of text plus the JSON
    );
    expect(outcome.error).toBeInstanceOf(ThreadStateTooLargeError);
    expect(outcome.error).toMatchObject({ limitBytes: 16_384 });
    expect(writes(state)).toEqual([]);
  });

  it('accepts a value of exactly 16 KiB serialised', async () => {
    const { outcome } = await inHandler((ctx) => ctx.thread.state.set('x'.repeat(16_382)));
    expect(outcome.error).toBeUndefined();
  });

  it.each([
    ['undefined', undefined],
    ['a function', { f: () => 1 }],
    ['a bigint', { n: 1n }],
    ['NaN', { n: Number.NaN }],
    ['undefined in an array', [1, undefined]],
    [
      'a cycle',
      (() => {
        const cycle: Record<string, unknown> = {};
        cycle.self = cycle;
        return cycle;
      })(),
    ],
  ])('refuses %s with ThreadStateSerializationError before any State call', async (_, value) => {
    const { state, outcome } = await inHandler((ctx) => ctx.thread.state.set(value));
    expect(outcome.error).toBeInstanceOf(ThreadStateSerializationError);
    expect(writes(state)).toEqual([]);
  });

  it('refuses set and update under strategy concurrent with UnfencedWriteError; get still works', async () => {
    const { state, outcome } = await inHandler(
      async (ctx) => {
        expect(ctx.lock).toBeUndefined();
        expect(await ctx.thread.state.get()).toBeUndefined();
        const errors: unknown[] = [];
        await ctx.thread.state.set(1).catch((error) => errors.push(error));
        await ctx.thread.state.update(() => 1).catch((error) => errors.push(error));
        return errors;
      },
      { concurrency: 'concurrent' },
    );
    expect(outcome.value).toEqual([expect.any(UnfencedWriteError), expect.any(UnfencedWriteError)]);
    expect(writes(state)).toEqual([]);
  });

  it('rejects a write whose fence is below the stored one with StaleFenceError and keeps the value', async () => {
    const state = new ThreadTestState();
    state.records.set(KEY, { value: '"successor"', fence: 99, version: 4, expiresAt: Infinity });
    const { outcome } = await inHandler(
      async (ctx) => {
        const errors: unknown[] = [];
        await ctx.thread.state.set('late').catch((error) => errors.push(error));
        await ctx.thread.state.update(() => 'late').catch((error) => errors.push(error));
        return errors;
      },
      { state },
    );
    expect(outcome.value).toEqual([expect.any(StaleFenceError), expect.any(StaleFenceError)]);
    expect(outcome.value?.[0]).toMatchObject({ fence: 1, storedFence: 99 });
    expect(state.records.get(KEY)?.value).toBe('"successor"');
  });

  it('leaves the previous value when the State fails during set, with the State error', async () => {
    const state = new ThreadTestState();
    state.records.set(KEY, { value: '"old"', fence: 0, version: 1, expiresAt: Infinity });
    state.threadFaults.writeThreadState = () => new StateUnavailableError('down');
    const { outcome } = await inHandler((ctx) => ctx.thread.state.set('new'), { state });
    expect(outcome.error).toBeInstanceOf(StateUnavailableError);
    expect(state.records.get(KEY)?.value).toBe('"old"');
  });

  it('update reads, applies fn and writes with the version it read', async () => {
    const state = new ThreadTestState();
    state.records.set(KEY, { value: '{"count":1}', fence: 0, version: 3, expiresAt: Infinity });
    const { outcome } = await inHandler(
      (ctx) => ctx.thread.state.update<{ count: number }>((s) => ({ count: (s?.count ?? 0) + 1 })),
      { state },
    );
    expect(outcome.value).toEqual({ count: 2 });
    expect(state.records.get(KEY)).toMatchObject({ value: '{"count":2}', version: 4 });
  });

  it('update retries on a concurrent write, then gives up with ThreadStateConflictError after 5 attempts', async () => {
    const state = new ThreadTestState();
    let interleave = 2;
    state.threadFaults.beforeWrite = () => {
      if (interleave-- <= 0) return;
      const held = state.records.get(KEY);
      state.records.set(KEY, {
        value: '{"count":100}',
        fence: 0,
        version: (held?.version ?? 0) + 1,
        expiresAt: Infinity,
      });
    };
    const calls: unknown[] = [];
    const { outcome } = await inHandler(
      (ctx) =>
        ctx.thread.state.update<{ count: number }>((s) => {
          calls.push(s);
          return { count: (s?.count ?? 0) + 1 };
        }),
      { state },
    );
    expect(calls).toEqual([undefined, { count: 100 }, { count: 100 }]);
    expect(outcome.value).toEqual({ count: 101 });

    state.calls.length = 0;
    state.threadFaults.beforeWrite = () => {
      const held = state.records.get(KEY);
      state.records.set(KEY, { ...held!, version: held!.version + 1 });
    };
    const again = await inHandler((ctx) => ctx.thread.state.update(() => 1), { state });
    expect(again.outcome.error).toBeInstanceOf(ThreadStateConflictError);
    expect(writes(state)).toHaveLength(5);
  });

  it('refuses every thread call with NotInThreadError when the event has no thread', async () => {
    const state = new ThreadTestState();
    const { runtime, adapter } = setup({ state });
    const errors: unknown[] = [];
    runtime.onCommand('x', async (ctx) => {
      expect(ctx.thread.key).toBeUndefined();
      for (const call of [
        () => ctx.thread.subscribe(),
        () => ctx.thread.state.get(),
        () => ctx.thread.state.set(1),
      ]) {
        await call().catch((error) => errors.push(error));
      }
    });
    await settledOf(await adapter.send({ kind: 'command', command: 'x', thread: undefined }));
    expect(errors).toEqual([
      expect.any(NotInThreadError),
      expect.any(NotInThreadError),
      expect.any(NotInThreadError),
    ]);
    expect(state.calls.filter((c) => /Thread|subscri/.test(c))).toEqual([]);
  });

  it('rejects with StateCapabilityMissingError and observes it once when the State lacks the capabilities', async () => {
    const { outcome, ofType } = await inHandler(
      async (ctx) => {
        const errors: unknown[] = [];
        await ctx.thread.state.set(1).catch((error) => errors.push(error));
        await ctx.thread.state.get().catch((error) => errors.push(error));
        await ctx.thread.subscribe().catch((error) => errors.push(error));
        return errors;
      },
      { state: new TestState() },
    );
    expect(outcome.value).toEqual([
      expect.any(StateCapabilityMissingError),
      expect.any(StateCapabilityMissingError),
      expect.any(StateCapabilityMissingError),
    ]);
    expect(ofType('state_capability_missing')).toMatchObject([
      { capability: 'FencedThreadState', event: { kind: 'message' } },
      { capability: 'Subscriptions' },
    ]);
  });

  it('sends nothing once the handler signal aborted, rejecting with its reason', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const { state, outcome } = await inHandler((ctx) =>
      ctx.thread.state.set(1, { signal: controller.signal }),
    );
    expect(outcome.error).toMatchObject({ message: 'stop' });
    expect(writes(state)).toEqual([]);
  });
  it('rejects with PreemptedError and sends nothing once the handler knows its lease was lost', async () => {
    const state = new ThreadTestState();
    const { runtime, adapter } = setup({ state, lockTtlMs: 3000 });
    const lost = deferred();
    let error: unknown;
    runtime.onMessage(async (ctx) => {
      await ctx.thread.state.set({ step: 1 });
      ctx.signal.addEventListener('abort', () => lost.resolve());
      await lost.promise;
      error = await ctx.thread.state.set({ step: 2 }).catch((thrown: unknown) => thrown);
    });
    const result = await adapter.send(THREAD);
    await vi.advanceTimersByTimeAsync(0);
    // A successor holds the key now: the next renewal finds the lease lost.
    state.locks.set(KEY, { token: 'successor', fence: 99, expiresAt: Date.now() + 60_000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect((await settledOf(result)).outcome).toBe('preempted');
    expect(error).toBeInstanceOf(PreemptedError);
    expect(writes(state)).toHaveLength(1);
    expect(state.records.get(KEY)?.value).toBe('{"step":1}');
  });
});
