import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, outcomeNow, settledOf } from '../test-support/test-adapter.js';

describe('drop strategy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('drops a delivery whose thread is locked, observes the conflict and releases its slot', async () => {
    const { runtime, adapter, ofType } = setup({ concurrency: 'drop', maxDetached: 2 });
    const hold = deferred();
    let calls = 0;
    runtime.onMessage(async () => {
      calls += 1;
      await hold.promise;
    });
    const first = await adapter.send({ thread: 'th' });
    const second = await adapter.send({ thread: 'th' });
    expect((await settledOf(second)).outcome).toBe('dropped');
    expect(ofType('lock_conflict')).toMatchObject([{ lockKey: 'test:T1:C1:th' }]);
    expect(runtime.stats().detachedInFlight).toBe(1);
    hold.resolve();
    expect((await settledOf(first)).outcome).toBe('completed');
    expect(calls).toBe(1);
    expect(runtime.stats().detachedInFlight).toBe(0);
  });

  it('runs different threads in parallel and releases each lock afterwards', async () => {
    const { runtime, adapter, state } = setup({ concurrency: 'drop' });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const a = await adapter.send({ thread: 'a' });
    const b = await adapter.send({ thread: 'b' });
    expect(state.locks.size).toBe(2);
    hold.resolve();
    for (const r of [a, b]) expect((await settledOf(r)).outcome).toBe('completed');
    expect(state.locks.size).toBe(0);
  });

  it('does not drop a thread whose ts matches a busy thread in another channel', async () => {
    const { runtime, adapter } = setup({ concurrency: 'drop' });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const first = await adapter.send({ channel: 'C1', thread: '1700000000.000100' });
    const second = await adapter.send({ channel: 'C2', thread: '1700000000.000100' });
    expect(await outcomeNow(second)).toBe('pending');
    hold.resolve();
    expect((await settledOf(first)).outcome).toBe('completed');
    expect((await settledOf(second)).outcome).toBe('completed');
  });

  it('locks on the channel when lockScope is channel', async () => {
    const { runtime, adapter } = setup({ concurrency: 'drop', lockScope: 'channel' });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    await adapter.send({ channel: 'C7', thread: 'a' });
    const other = await adapter.send({ channel: 'C7', thread: 'b' });
    expect((await settledOf(other)).outcome).toBe('dropped');
    hold.resolve();
  });
});
