import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, settledOf } from '../test-support/test-adapter.js';

describe('drop strategy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('drops a delivery whose thread is locked, observes the conflict and releases its slot', async () => {
    const { runtime, adapter, ofType } = setup({ maxDetached: 2 });
    const hold = deferred();
    let calls = 0;
    runtime.onMessage(async () => {
      calls += 1;
      await hold.promise;
    });
    const first = await adapter.send({ thread: 'th' });
    const second = await adapter.send({ thread: 'th' });
    expect((await settledOf(second)).outcome).toBe('dropped');
    expect(ofType('lock_conflict')).toMatchObject([{ lockKey: 'test:T1:th' }]);
    expect(runtime.stats().detachedInFlight).toBe(1);
    hold.resolve();
    expect((await settledOf(first)).outcome).toBe('completed');
    expect(calls).toBe(1);
    expect(runtime.stats().detachedInFlight).toBe(0);
  });

  it('runs different threads in parallel and releases each lock afterwards', async () => {
    const { runtime, adapter, state } = setup();
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    const a = await adapter.send({ thread: 'a' });
    const b = await adapter.send({ thread: 'b' });
    expect(state.locks.size).toBe(2);
    hold.resolve();
    for (const r of [a, b]) expect((await settledOf(r)).outcome).toBe('completed');
    expect(state.locks.size).toBe(0);
  });

  it('locks on the channel when lockScope is channel', async () => {
    const { runtime, adapter } = setup({ lockScope: 'channel' });
    const hold = deferred();
    runtime.onMessage(() => hold.promise);
    await adapter.send({ channel: 'C7', thread: 'a' });
    const other = await adapter.send({ channel: 'C7', thread: 'b' });
    expect((await settledOf(other)).outcome).toBe('dropped');
    hold.resolve();
  });
});
