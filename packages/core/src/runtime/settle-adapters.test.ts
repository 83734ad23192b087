import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Adapter } from '../adapter/adapter.js';
import type { Observation } from '../observe/observation.js';

/** An adapter with only the lifecycle steps a test gives it. */
function adapterWith(name: string, steps: Pick<Adapter, 'stop' | 'drain'>): Adapter {
  return {
    name,
    attach: () => {},
    reply: async () => ({ channel: 'C1', id: 'm1' }),
    ...steps,
  };
}

import { settleAdapters } from './settle-adapters.js';

describe('settleAdapters', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands each adapter a signal that aborts at the budget and observes the step timed out', async () => {
    let seen: AbortSignal | undefined;
    const adapter = adapterWith('slow', {
      stop: (signal) => {
        seen = signal;
        return new Promise<void>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
    });
    const observations: Observation[] = [];
    let done = false;
    const settling = settleAdapters([adapter], 'stop', 1000, (o) => observations.push(o)).then(
      () => {
        done = true;
      },
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(seen?.aborted).toBe(false);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await settling;
    expect(seen?.reason).toMatchObject({ name: 'TimeoutError' });
    expect(observations).toMatchObject([
      { type: 'adapter_notice', adapter: 'slow', name: 'stop_timed_out' },
    ]);
  });

  it('stops waiting at the budget for a step that ignores its signal', async () => {
    const adapter = adapterWith('deaf', { drain: () => new Promise<void>(() => {}) });
    const observations: Observation[] = [];
    const settling = settleAdapters([adapter], 'drain', 500, (o) => observations.push(o));
    await vi.advanceTimersByTimeAsync(500);
    await settling;
    expect(observations).toMatchObject([{ name: 'drain_timed_out' }]);
  });

  it('observes a step that fails before its budget, and nothing for one that succeeds', async () => {
    const failure = new Error('socket refused to close');
    const failing = adapterWith('failing', {
      stop: async () => {
        throw failure;
      },
    });
    let stopped = 0;
    const fine = adapterWith('fine', {
      stop: async () => {
        stopped += 1;
      },
    });
    const observations: Observation[] = [];
    await settleAdapters([failing, fine], 'stop', 500, (o) => observations.push(o));
    expect(observations).toMatchObject([
      { adapter: 'failing', name: 'stop_failed', error: failure },
    ]);
    expect(stopped).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
