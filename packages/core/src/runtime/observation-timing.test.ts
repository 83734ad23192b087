import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, settledOf } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';

/** A TestState whose `markEvent` marks at once but answers only when `gate` resolves. */
class GatedMarkState extends TestState {
  readonly gate = deferred();

  override async markEvent(key: string, ttlMs: number): Promise<boolean> {
    const marked = await super.markEvent(key, ttlMs);
    await this.gate.promise;
    return marked;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('observation timing', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('carries receipt time on admission and outcome, and the handler run on the outcome', async () => {
    const { runtime, adapter, ofType } = setup();
    runtime.onMessage(() => sleep(400));
    const result = await adapter.send({ id: 'E1', receivedAt: 1_000_000 - 250 });
    await vi.advanceTimersByTimeAsync(400);
    await settledOf(result);
    expect(ofType('dispatch_admitted')).toMatchObject([{ at: 1_000_000, receivedAt: 999_750 }]);
    expect(ofType('dispatch_finished')).toMatchObject([
      {
        outcome: 'completed',
        at: 1_000_400,
        receivedAt: 999_750,
        durationMs: 400,
        handlerStartedAt: 1_000_000,
        handlerMs: 400,
      },
    ]);
  });

  it('starts the handler timing when a parked delivery finally runs, not at its admission', async () => {
    const { runtime, adapter, ofType } = setup({ concurrency: 'queue' });
    const started = deferred();
    runtime.onMessage((ctx) => {
      if (ctx.event.id !== 'first') return sleep(300);
      started.resolve();
      return sleep(1_000);
    });
    const first = await adapter.send({ id: 'first', thread: 't' });
    await started.promise;
    const second = await adapter.send({ id: 'second', thread: 't' });
    await vi.advanceTimersByTimeAsync(5_000);
    await settledOf(first);
    await settledOf(second);
    const finished = ofType('dispatch_finished').find((o) => o.event.id === 'second');
    expect(finished?.receivedAt).toBe(1_000_000);
    expect(finished?.handlerStartedAt).toBeGreaterThanOrEqual(1_001_000);
    expect(finished?.handlerMs).toBe(300);
    expect(finished?.at).toBe((finished?.handlerStartedAt ?? 0) + 300);
  });

  it('leaves the handler timing out when no handler ran', async () => {
    const { runtime, adapter, ofType } = setup({ concurrency: 'queue', maxDetached: 3 });
    const hold = deferred();
    const started = deferred();
    runtime.onMessage(() => {
      started.resolve();
      return hold.promise;
    });
    await adapter.send({ id: 'A', thread: 't' });
    await started.promise;
    await adapter.send({ id: 'A', thread: 't' }); // duplicate
    const parked = await adapter.send({ id: 'B', thread: 't' });
    await adapter.send({ id: 'C', thread: 't' }); // supersedes B
    await settledOf(parked);
    await adapter.send({ id: 'D', thread: 'u' }); // the third slot
    await expect(adapter.send({ id: 'E', receivedAt: 999_990 })).rejects.toMatchObject({
      reason: 'capacity',
    });
    const byId = (id: string) => ofType('dispatch_finished').filter((o) => o.event.id === id);
    expect(byId('A')).toMatchObject([{ outcome: 'duplicate', receivedAt: 1_000_000 }]);
    expect(byId('B')).toMatchObject([{ outcome: 'superseded' }]);
    expect(byId('E')).toMatchObject([{ outcome: 'admission-rejected', receivedAt: 999_990 }]);
    expect(ofType('admission_rejected')).toMatchObject([{ receivedAt: 999_990 }]);
    for (const o of [...byId('A'), ...byId('B'), ...byId('E')]) {
      expect(o.handlerStartedAt).toBeUndefined();
      expect(o.handlerMs).toBeUndefined();
    }
    hold.resolve();
    await runtime.shutdown();
  });

  it('gives every burst member its batch run', async () => {
    const { runtime, adapter, ofType } = setup({
      concurrency: { strategy: 'burst', burstWindowMs: 50 },
    });
    runtime.onMessage(() => sleep(200));
    const members = [
      await adapter.send({ thread: 'b' }),
      await adapter.send({ thread: 'b' }),
      await adapter.send({ thread: 'b' }),
    ];
    await vi.advanceTimersByTimeAsync(1_000);
    for (const member of members) await settledOf(member);
    const finished = ofType('dispatch_finished');
    expect(finished.map((o) => [o.outcome, o.handlerStartedAt, o.handlerMs])).toEqual([
      ['completed', 1_000_050, 200],
      ['completed', 1_000_050, 200],
      ['completed', 1_000_050, 200],
    ]);
  });

  it('keeps the start but no duration for a handler shutdown abandoned', async () => {
    const { runtime, adapter, ofType } = setup();
    const never = deferred();
    const started = deferred();
    runtime.onMessage(() => {
      started.resolve();
      return never.promise;
    });
    await adapter.send();
    await started.promise;
    const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 100 });
    await vi.advanceTimersByTimeAsync(200);
    await stopping;
    expect(ofType('dispatch_finished')).toMatchObject([
      { outcome: 'shutdown', handlerStartedAt: 1_000_000 },
    ]);
    expect(ofType('dispatch_finished')[0]?.handlerMs).toBeUndefined();
    never.resolve();
  });

  for (const concurrency of [
    'concurrent',
    { strategy: 'concurrent', maxConcurrent: 2 },
    'drop',
    'queue',
    { strategy: 'debounce', debounceMs: 10 },
    { strategy: 'burst', burstWindowMs: 10 },
  ] as const) {
    it(`has no handler timing when a sync deadline passed during the dedupe mark (${JSON.stringify(concurrency)})`, async () => {
      const state = new GatedMarkState();
      const { runtime, adapter, ofType } = setup(
        { state, concurrency },
        { shapeModes: { message: 'sync' } },
      );
      let ran = 0;
      runtime.onMessage(() => {
        ran += 1;
      });
      const deadline = new AbortController();
      const answered = adapter.send({}, { signal: deadline.signal });
      await vi.advanceTimersByTimeAsync(0);
      expect(state.marks.size).toBe(1);
      deadline.abort(new Error('ack deadline passed'));
      state.gate.resolve();
      await vi.advanceTimersByTimeAsync(100);
      expect(await answered).toMatchObject({ status: 'completed', outcome: 'timed-out' });
      expect(ran).toBe(0);
      const [finished] = ofType('dispatch_finished');
      expect(finished).toMatchObject({ outcome: 'timed-out' });
      expect(finished?.handlerStartedAt).toBeUndefined();
      expect(finished?.handlerMs).toBeUndefined();
    });
  }

  it('carries receipt time on a prelude error', async () => {
    const { runtime, adapter, state, ofType } = setup();
    state.faults.markEvent = () => new Error('down');
    runtime.onMessage(() => {});
    await expect(adapter.send({ receivedAt: 999_000 })).rejects.toMatchObject({
      code: 'RT_PRELUDE',
    });
    expect(ofType('prelude_error')).toMatchObject([{ receivedAt: 999_000 }]);
    expect(ofType('dispatch_finished')).toMatchObject([
      { outcome: 'prelude-error', receivedAt: 999_000, durationMs: 1_000 },
    ]);
  });
});
