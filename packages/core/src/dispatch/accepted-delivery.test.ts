/**
 * A deferred dispatch's `accepted` result builds `settled` on first read: read while the delivery
 * runs, or long after it finished, it resolves with the same finished delivery.
 */
import { describe, expect, it } from 'vitest';
import { setup } from '../test-support/setup.js';
import { deferred, flush, makeEvent } from '../test-support/test-adapter.js';

describe('accepted.settled', () => {
  it('resolves with the outcome when read only after the delivery finished', async () => {
    const { runtime, adapter } = setup();
    runtime.onMessage(() => 'done');
    const result = await runtime.dispatch(makeEvent({ adapter: adapter.name }));
    expect(result.status).toBe('accepted');
    await flush();
    expect(runtime.stats().detachedInFlight).toBe(0);
    if (result.status !== 'accepted') return;
    const finished = await result.settled;
    expect(finished.outcome).toBe('completed');
    expect(result.settled).toBe(result.settled);
    await runtime.shutdown();
  });

  it('resolves once the delivery finishes when read while it runs, the same promise each read', async () => {
    const { runtime, adapter } = setup();
    const release = deferred();
    runtime.onMessage(() => release.promise);
    const result = await runtime.dispatch(makeEvent({ adapter: adapter.name }));
    if (result.status !== 'accepted') throw new Error(`expected accepted, got ${result.status}`);
    const settled = result.settled;
    expect(result.settled).toBe(settled);
    let finished: string | undefined;
    void settled.then((delivery) => {
      finished = delivery.outcome;
    });
    await flush();
    expect(finished).toBeUndefined();
    expect(runtime.stats().detachedInFlight).toBe(1);
    release.resolve();
    await flush();
    expect(finished).toBe('completed');
    expect(runtime.stats().detachedInFlight).toBe(0);
    await runtime.shutdown();
  });
});

describe('the accepted result a caller of dispatch holds', () => {
  it('offers status and settled, and nothing that could end the delivery early', async () => {
    const { runtime, adapter } = setup();
    const release = deferred();
    runtime.onMessage(() => release.promise);
    const result = await runtime.dispatch(makeEvent({ adapter: adapter.name }));
    const own = Object.keys(result);
    const inherited = new Set<string>();
    for (let proto = Object.getPrototypeOf(result); proto !== Object.prototype; ) {
      for (const name of Object.getOwnPropertyNames(proto)) inherited.add(name);
      proto = Object.getPrototypeOf(proto);
    }
    inherited.delete('constructor');
    expect(own).toEqual(['status']);
    expect([...inherited]).toEqual(['settled']);
    release.resolve();
    await flush();
    await runtime.shutdown();
  });
});
