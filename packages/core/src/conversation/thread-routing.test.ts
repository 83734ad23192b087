import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PreludeError, StateCapabilityMissingError, StateUnavailableError } from '../errors.js';
import type { HandlerContext } from '../routing/handler.js';
import { setup } from '../test-support/setup.js';
import { settledOf } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';
import { ThreadTestState } from '../test-support/test-thread-state.js';

const THREAD = { channel: 'C1', thread: '100.1' } as const;
const KEY = 'test:T1:C1:100.1';

function bed() {
  const state = new ThreadTestState();
  const parts = setup({ state });
  const seen: string[] = [];
  const record = (label: string) => (ctx: HandlerContext) =>
    void seen.push(`${label} ${ctx.event.id}`);
  parts.runtime.onMention(record('mention'));
  parts.runtime.onMessage(record('message'));
  parts.runtime.onSubscribedMessage(record('subscribed'));
  const subscriptionCalls = () =>
    state.calls.filter((call) => /subscri|Subscri/.test(call.split(' ')[0] ?? ''));
  return { ...parts, state, seen, subscriptionCalls };
}

async function handled(result: Promise<import('../dispatch/dispatch-result.js').DispatchResult>) {
  await settledOf(await result);
}

describe('onSubscribedMessage routing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('routes a plain message in a subscribed thread there instead of to onMessage', async () => {
    const { adapter, state, seen } = bed();
    await state.subscribe(KEY, 60_000);
    await handled(adapter.send({ id: 'M1', ...THREAD }));
    expect(seen).toEqual(['subscribed M1']);
  });

  it('routes a plain message in an unsubscribed thread to onMessage as before', async () => {
    const { adapter, seen } = bed();
    await handled(adapter.send({ id: 'M1', ...THREAD }));
    expect(seen).toEqual(['message M1']);
  });

  it('keeps a mention in a subscribed thread on onMention, run once, with no subscription read', async () => {
    const { adapter, state, seen, subscriptionCalls } = bed();
    await state.subscribe(KEY, 60_000);
    state.calls.length = 0;
    await handled(adapter.send({ id: 'A1', kind: 'mention', ...THREAD }));
    expect(seen).toEqual(['mention A1']);
    expect(subscriptionCalls()).toEqual([]);
  });

  it('makes exactly one State read per plain message in a thread and none outside threads', async () => {
    const { adapter, state, seen, subscriptionCalls } = bed();
    await handled(adapter.send({ id: 'in-thread', ...THREAD }));
    expect(subscriptionCalls()).toEqual([`touchSubscription ${KEY}`]);
    state.calls.length = 0;
    await handled(adapter.send({ id: 'no-thread', channel: 'C1', thread: undefined }));
    await handled(adapter.send({ id: 'root', ...THREAD, thread: '200.2', threadRoot: true }));
    expect(
      (await adapter.send({ id: 'cmd', kind: 'command', command: 'x', ...THREAD })).status,
    ).toBe('unrouted');
    expect(subscriptionCalls()).toEqual([]);
    expect(seen).toEqual(['message in-thread', 'message no-thread', 'message root']);
  });

  it('makes no subscription read at all while no onSubscribedMessage route is registered', async () => {
    const state = new ThreadTestState();
    const { runtime, adapter } = setup({ state });
    runtime.onMessage(() => {});
    await state.subscribe(KEY, 60_000);
    state.calls.length = 0;
    await handled(adapter.send({ id: 'M1', ...THREAD }));
    expect(state.calls.filter((call) => call.startsWith('touch'))).toEqual([]);
  });

  it('extends the subscription by its own TTL on each routed message, and ends it after the TTL', async () => {
    const { adapter, state, seen } = bed();
    await state.subscribe(KEY, 10_000);
    vi.advanceTimersByTime(8_000);
    await handled(adapter.send({ id: 'M1', ...THREAD }));
    vi.advanceTimersByTime(8_000); // 16 s after subscribe, 8 s after the refresh
    await handled(adapter.send({ id: 'M2', ...THREAD }));
    vi.advanceTimersByTime(10_001);
    await handled(adapter.send({ id: 'M3', ...THREAD }));
    expect(seen).toEqual(['subscribed M1', 'subscribed M2', 'message M3']);
  });

  it('ends the subscription when an event says the thread ended, then routes that event normally', async () => {
    const { runtime, adapter, state, seen } = bed();
    runtime.onEvent('thread_delete', (ctx) => void seen.push(`raw ${ctx.event.id}`));
    await state.subscribe(KEY, 60_000);
    await handled(
      adapter.send({ id: 'D1', kind: 'raw', type: 'thread_delete', endsThread: true, ...THREAD }),
    );
    expect(await state.isSubscribed(KEY)).toBe(false);
    await handled(adapter.send({ id: 'M1', ...THREAD }));
    expect(seen).toEqual(['raw D1', 'message M1']);
  });

  it('refuses the event as a prelude error, marking nothing, when the subscription read fails', async () => {
    const { adapter, state, seen, ofType } = bed();
    state.threadFaults.touchSubscription = () => new StateUnavailableError('down');
    await expect(adapter.send({ id: 'M1', ...THREAD })).rejects.toBeInstanceOf(PreludeError);
    expect(state.marks.size).toBe(0);
    expect(ofType('prelude_error')).toHaveLength(1);
    state.threadFaults.touchSubscription = undefined;
    await handled(adapter.send({ id: 'M1', ...THREAD })); // the platform's retry is handled
    expect(seen).toEqual(['message M1']);
  });

  it('lets ctx.thread.subscribe() at a mention send the next plain message to onSubscribedMessage', async () => {
    const state = new ThreadTestState();
    const { runtime, adapter } = setup({ state });
    const seen: string[] = [];
    runtime.onMention(async (ctx) => {
      seen.push('mention');
      await ctx.thread.subscribe({ ttlMs: 60_000 });
      expect(await ctx.thread.isSubscribed()).toBe(true);
    });
    runtime.onSubscribedMessage(async (ctx) => {
      seen.push(`subscribed ${ctx.event.text}`);
      if (ctx.event.text === 'bye') expect(await ctx.thread.unsubscribe()).toBe(true);
    });
    runtime.onMessage((ctx) => void seen.push(`message ${ctx.event.text}`));
    await handled(adapter.send({ kind: 'mention', ...THREAD }));
    await handled(adapter.send({ text: 'more', ...THREAD }));
    await handled(adapter.send({ text: 'bye', ...THREAD }));
    await handled(adapter.send({ text: 'after', ...THREAD }));
    expect(seen).toEqual(['mention', 'subscribed more', 'subscribed bye', 'message after']);
  });

  it('refuses onSubscribedMessage with a typed error and one observation when the State lacks Subscriptions', () => {
    const { runtime, ofType } = setup({ state: new TestState() });
    expect(() => runtime.onSubscribedMessage(() => {})).toThrow(StateCapabilityMissingError);
    expect(() => runtime.on({ kind: 'subscribed_message' }, () => {})).toThrow(
      StateCapabilityMissingError,
    );
    expect(ofType('state_capability_missing')).toMatchObject([{ capability: 'Subscriptions' }]);
  });
});
