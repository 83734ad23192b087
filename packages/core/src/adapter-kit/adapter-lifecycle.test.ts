import { describe, expect, it } from 'vitest';
import type { RuntimeHandle } from '../adapter/adapter.js';
import { deferred } from '../test-support/test-adapter.js';
import { AdapterLifecycle } from './adapter-lifecycle.js';
import { AttachGuard } from './attach-guard.js';
import { PendingSet } from './pending-set.js';

function recorder() {
  const steps: string[] = [];
  const transport = (name: string) => ({
    start: async () => void steps.push(`${name}.start`),
    stop: async () => void steps.push(`${name}.stop`),
    close: async () => void steps.push(`${name}.close`),
  });
  const followUps = { drain: async () => void steps.push('followUps.drain') };
  return { steps, transport, followUps };
}

describe('AdapterLifecycle', () => {
  it('starts transports in order; stop runs their stop, then answers, then follow-ups', async () => {
    const { steps, transport, followUps } = recorder();
    const answering = new PendingSet();
    const answer = deferred();
    void answering.track(answer.promise.then(() => void steps.push('answer settled')));
    const lifecycle = new AdapterLifecycle({
      answering,
      followUps,
      transports: [transport('a'), undefined, transport('b')],
    });
    await lifecycle.start();
    const stopping = lifecycle.stop();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(steps).toEqual(['a.start', 'b.start', 'a.stop', 'b.stop']);
    answer.resolve();
    await stopping;
    expect(steps.slice(4)).toEqual(['answer settled', 'followUps.drain']);
  });

  it('drain waits a tick, closes each transport, then settles', async () => {
    const { steps, transport, followUps } = recorder();
    const lifecycle = new AdapterLifecycle({
      answering: new PendingSet(),
      followUps,
      transports: [transport('a')],
    });
    const draining = lifecycle.drain();
    expect(steps).toEqual([]);
    await draining;
    expect(steps).toEqual(['a.close', 'followUps.drain']);
  });

  it('rejects with the signal reason when it aborts while answers are still being built', async () => {
    const answering = new PendingSet();
    void answering.track(new Promise(() => {}));
    const lifecycle = new AdapterLifecycle({
      answering,
      followUps: { drain: async () => {} },
      transports: [],
    });
    const controller = new AbortController();
    const stopping = lifecycle.stop(controller.signal);
    controller.abort(new Error('step deadline'));
    await expect(stopping).rejects.toThrow('step deadline');
  });
});

describe('AttachGuard', () => {
  it('holds one runtime: the same one again is fine, another throws naming the adapter', () => {
    const guard = new AttachGuard('demo adapter "d"');
    const one = {} as RuntimeHandle;
    expect(guard.current).toBeUndefined();
    guard.attach(one);
    guard.attach(one);
    expect(guard.current).toBe(one);
    expect(() => guard.attach({} as RuntimeHandle)).toThrow(
      new TypeError('demo adapter "d" is already attached to a runtime'),
    );
  });
});
