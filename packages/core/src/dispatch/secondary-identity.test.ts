import { describe, expect, it } from 'vitest';
import type { RtEvent } from '../event/event.js';
import { installationMarkKey, MAX_MARK_KEYS } from '../state/mark-keys.js';
import { setup } from '../test-support/setup.js';
import { deferred, settledOf } from '../test-support/test-adapter.js';
import { MultiMarkTestState, TestState } from '../test-support/test-state.js';

/** The secondary identity of message `ts` in channel C1 of the test adapter's tenant T1. */
const messageKey = (ts: string, tenant = 'T1') =>
  installationMarkKey('message', 'test', tenant, `C1:${ts}`);

/** Two deliveries of one message under two event ids. */
const copy = (id: string, ts = '1.0001'): Partial<RtEvent> => ({ id, aliases: [messageKey(ts)] });

describe('an event with secondary identities, on a State with MultiKeyMark', () => {
  it('marks the primary identity and every alias in one markEvents call', async () => {
    const state = new MultiMarkTestState();
    const { runtime, adapter } = setup({ state });
    runtime.onMessage(() => {});
    await expect(adapter.send(copy('E1'))).resolves.toMatchObject({ status: 'accepted' });
    expect(state.calls.filter((c) => c.startsWith('mark'))).toEqual([
      `markEvents event:test:T1:E1 ${messageKey('1.0001')}`,
    ]);
  });

  it('answers a second event id of the same message as a duplicate, observed as one', async () => {
    const { runtime, adapter, ofType } = setup({ state: new MultiMarkTestState() });
    let runs = 0;
    runtime.onMessage(() => {
      runs += 1;
    });
    await settledOf(await adapter.send(copy('E1')));
    await expect(adapter.send(copy('E2'))).resolves.toEqual({ status: 'duplicate' });
    expect(runs).toBe(1);
    expect(ofType('dispatch_finished').map((o) => [o.event.id, o.outcome])).toEqual([
      ['E1', 'completed'],
      ['E2', 'duplicate'],
    ]);
  });

  it('accepts exactly one of two copies dispatched at once', async () => {
    const { runtime, adapter } = setup({ state: new MultiMarkTestState() });
    runtime.onMessage(() => {});
    const results = await Promise.all([adapter.send(copy('E1')), adapter.send(copy('E2'))]);
    expect(results.map((r) => r.status).sort()).toEqual(['accepted', 'duplicate']);
  });

  it('still answers a plain redelivery (same event id) as a duplicate', async () => {
    const { runtime, adapter } = setup({ state: new MultiMarkTestState() });
    runtime.onMessage(() => {});
    await adapter.send(copy('E1'));
    await expect(adapter.send({ ...copy('E1'), retry: { attempt: 1 } })).resolves.toEqual({
      status: 'duplicate',
    });
  });

  it('handles different messages of one channel separately', async () => {
    const { runtime, adapter } = setup({ state: new MultiMarkTestState() });
    runtime.onMessage(() => {});
    await adapter.send(copy('E1', '1.0001'));
    await expect(adapter.send(copy('E2', '1.0002'))).resolves.toMatchObject({
      status: 'accepted',
    });
  });

  it('marks nothing when markEvents fails: a prelude error, and the retry is accepted', async () => {
    const state = new MultiMarkTestState();
    const { runtime, adapter, ofType } = setup({ state });
    runtime.onMessage(() => {});
    const boom = new Error('state down');
    state.faults.markEvents = () => boom;
    await expect(adapter.send(copy('E1'))).rejects.toMatchObject({
      code: 'RT_PRELUDE',
      cause: boom,
    });
    expect(ofType('prelude_error')).toHaveLength(1);
    expect(runtime.stats().detachedInFlight).toBe(0);
    expect(state.marks.size).toBe(0);
    state.faults.markEvents = undefined;
    await expect(adapter.send(copy('E1'))).resolves.toMatchObject({ status: 'accepted' });
  });

  it('never marks a copy refused for capacity under either key; its retry and the other copy are accepted', async () => {
    const state = new MultiMarkTestState();
    const { runtime, adapter, ofType } = setup({ state, maxDetached: 1 });
    const hold = deferred();
    runtime.onMessage((ctx) => (ctx.event.id === 'busy' ? hold.promise : undefined));
    const busy = await adapter.send({ id: 'busy' });
    await expect(adapter.send(copy('E1'))).rejects.toMatchObject({ reason: 'capacity' });
    expect(ofType('admission_rejected')).toHaveLength(1);
    expect(state.calls.filter((c) => c.includes('E1'))).toEqual([]);
    expect([...state.marks.keys()]).toEqual(['event:test:T1:busy']);
    hold.resolve();
    await settledOf(busy);
    // The other copy is not a duplicate of the refused one: its alias was never marked.
    const other = await adapter.send(copy('E2'));
    expect(other).toMatchObject({ status: 'accepted' });
    await settledOf(other);
    // The refused copy's retry now meets the message's mark, taken by the other copy.
    await expect(adapter.send({ ...copy('E1'), retry: { attempt: 1 } })).resolves.toEqual({
      status: 'duplicate',
    });
  });

  it('accepts the retry of a copy refused for capacity when no other copy came', async () => {
    const { runtime, adapter } = setup({ state: new MultiMarkTestState(), maxDetached: 1 });
    const hold = deferred();
    runtime.onMessage((ctx) => (ctx.event.id === 'busy' ? hold.promise : undefined));
    const busy = await adapter.send({ id: 'busy' });
    await expect(adapter.send(copy('E1'))).rejects.toMatchObject({ reason: 'capacity' });
    hold.resolve();
    await settledOf(busy);
    await expect(adapter.send({ ...copy('E1'), retry: { attempt: 1 } })).resolves.toMatchObject({
      status: 'accepted',
    });
  });

  it("marks every identity for the event's own dedupeTtlMs, and none at 0", async () => {
    const state = new MultiMarkTestState();
    const { runtime, adapter } = setup({ state });
    runtime.onMessage(() => {});
    const before = Date.now();
    await adapter.send({ ...copy('E1'), dedupeTtlMs: 3000 });
    for (const key of ['event:test:T1:E1', messageKey('1.0001')]) {
      expect(state.marks.get(key)).toBeGreaterThanOrEqual(before + 3000);
      expect(state.marks.get(key)).toBeLessThan(before + 60_000);
    }
    await adapter.send({ ...copy('E2', '2.0002'), dedupeTtlMs: 0 });
    expect(state.calls.filter((c) => c.includes('E2'))).toEqual([]);
  });

  it('marks an event without aliases with markEvent, as before', async () => {
    const state = new MultiMarkTestState();
    const { runtime, adapter } = setup({ state });
    runtime.onMessage(() => {});
    await adapter.send({ id: 'E1' });
    expect(state.calls.filter((c) => c.startsWith('mark'))).toEqual(['markEvent event:test:T1:E1']);
  });
});

describe('an event with secondary identities, on a State without MultiKeyMark', () => {
  it('marks the primary identity alone and says so once per runtime', async () => {
    const state = new TestState();
    const { runtime, adapter, ofType } = setup({ state });
    runtime.onMessage(() => {});
    await adapter.send({ id: 'plain' });
    expect(ofType('state_capability_missing')).toEqual([]);
    await adapter.send(copy('E1'));
    await adapter.send(copy('E2'));
    await adapter.send(copy('E3', '1.0003'));
    expect(state.calls.filter((c) => c.startsWith('mark'))).toEqual([
      'markEvent event:test:T1:plain',
      'markEvent event:test:T1:E1',
      'markEvent event:test:T1:E2',
      'markEvent event:test:T1:E3',
    ]);
    expect(ofType('state_capability_missing')).toMatchObject([
      { capability: 'MultiKeyMark', event: { id: 'E1' } },
    ]);
  });

  it('reports the missing capability once for each runtime', async () => {
    const state = new TestState();
    const first = setup({ state });
    const second = setup({ state });
    for (const { runtime, adapter } of [first, second]) {
      runtime.onMessage(() => {});
      await adapter.send(copy('E1'));
      await adapter.send(copy('E2'));
    }
    expect(first.ofType('state_capability_missing')).toHaveLength(1);
    expect(second.ofType('state_capability_missing')).toHaveLength(1);
  });

  it('does not report it for an event refused before the mark', async () => {
    const { runtime, adapter, ofType } = setup({ state: new TestState() });
    runtime.onMessage(() => {});
    void runtime.shutdown();
    await expect(adapter.send(copy('E1'))).rejects.toMatchObject({ reason: 'shutdown' });
    expect(ofType('state_capability_missing')).toEqual([]);
  });
});

describe('validating aliases', () => {
  const cases: [string, unknown][] = [
    ['not an array', 'message:test:T1:C1:1'],
    ['a key of another tenant', [messageKey('1.0001', 'T2')]],
    ['a key of another adapter', [installationMarkKey('message', 'other', 'T1', 'C1:1')]],
    ['a key not in the mark-key form', ['message']],
    ['a key of kind event', [installationMarkKey('event', 'test', 'T1', 'E9')]],
    ['a repeated key', [messageKey('1'), messageKey('1')]],
    ['too many keys', Array.from({ length: MAX_MARK_KEYS }, (_, i) => messageKey(String(i)))],
  ];
  for (const [what, aliases] of cases) {
    it(`refuses ${what} with InvalidEventError, marking nothing`, async () => {
      const state = new MultiMarkTestState();
      const { runtime, adapter } = setup({ state });
      runtime.onMessage(() => {});
      await expect(adapter.send({ aliases: aliases as string[] })).rejects.toMatchObject({
        code: 'RT_INVALID_EVENT',
      });
      expect(state.calls).toEqual([]);
    });
  }

  it('takes up to MAX_MARK_KEYS - 1 aliases', async () => {
    const { runtime, adapter } = setup({ state: new MultiMarkTestState() });
    runtime.onMessage(() => {});
    const aliases = Array.from({ length: MAX_MARK_KEYS - 1 }, (_, i) => messageKey(String(i)));
    await expect(adapter.send({ aliases })).resolves.toMatchObject({ status: 'accepted' });
  });
});

describe('fallbackKind', () => {
  it('routes under the event kind when a route selects it', async () => {
    const { runtime, adapter } = setup();
    const seen: string[] = [];
    runtime.onMention((ctx) => void seen.push(`mention:${ctx.event.kind}`));
    runtime.onMessage((ctx) => void seen.push(`message:${ctx.event.kind}`));
    await settledOf(await adapter.send({ kind: 'mention', fallbackKind: 'message' }));
    expect(seen).toEqual(['mention:mention']);
  });

  it('routes under fallbackKind, and hands the event over with that kind, when nothing else selects it', async () => {
    const { runtime, adapter, ofType } = setup();
    const seen: string[] = [];
    runtime.onMessage((ctx) => void seen.push(`message:${ctx.event.kind}`));
    await settledOf(await adapter.send({ kind: 'mention', fallbackKind: 'message' }));
    expect(seen).toEqual(['message:message']);
    expect(ofType('dispatch_finished')).toMatchObject([
      { outcome: 'completed', event: { kind: 'message' } },
    ]);
  });

  it('leaves an event that neither kind selects unrouted under its own kind', async () => {
    const { runtime, adapter, ofType } = setup();
    runtime.onCommand('deploy', () => {});
    await expect(adapter.send({ kind: 'mention', fallbackKind: 'message' })).resolves.toEqual({
      status: 'unrouted',
    });
    expect(ofType('dispatch_finished')).toMatchObject([
      { outcome: 'unrouted', event: { kind: 'mention' } },
    ]);
  });

  it('refuses an unknown fallbackKind with InvalidEventError', async () => {
    const { runtime, adapter } = setup();
    runtime.onMessage(() => {});
    await expect(adapter.send({ fallbackKind: 'nope' as never })).rejects.toMatchObject({
      code: 'RT_INVALID_EVENT',
    });
  });
});
