import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../test-support/test-adapter.js';
import { FollowUpRunner } from './follow-ups.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('FollowUpRunner', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends each follow-up on a later turn, never inside start', async () => {
    const sent: string[] = [];
    const runner = new FollowUpRunner<string>({
      send: async (f) => void sent.push(f),
      budgetMs: 1000,
      onFailure: () => {},
    });
    runner.start('a');
    expect(sent).toEqual([]);
    expect(runner.pending).toBe(1);
    await runner.drain();
    expect(sent).toEqual(['a']);
    expect(runner.pending).toBe(0);
  });

  it('reports a failing send and a throwing reporter never escapes', async () => {
    const failures: unknown[] = [];
    const runner = new FollowUpRunner<string>({
      send: async () => {
        throw new Error('platform said no');
      },
      budgetMs: 1000,
      onFailure: (f, error) => {
        failures.push([f, (error as Error).message]);
        throw new Error('reporter bug');
      },
    });
    runner.start('a');
    await runner.drain();
    expect(failures).toEqual([['a', 'platform said no']]);
  });

  it('aborts a send at its budget and gives up on one that ignores the signal', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const signals: AbortSignal[] = [];
    const failures: unknown[] = [];
    const runner = new FollowUpRunner<string>({
      send: (_f, signal) => {
        signals.push(signal);
        return new Promise(() => {});
      },
      budgetMs: 500,
      onFailure: (_f, error) => void failures.push(error),
      budgetMessage: 'too slow',
    });
    runner.start('hung');
    let drained = false;
    const draining = runner.drain().then(() => {
      drained = true;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(drained).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await draining;
    expect(signals[0]?.aborted).toBe(true);
    expect(failures).toMatchObject([{ name: 'TimeoutError', message: 'too slow' }]);
  });

  it('drains what was started before the call even while new follow-ups keep starting', async () => {
    const gates: ReturnType<typeof deferred<void>>[] = [];
    const runner = new FollowUpRunner<number>({
      send: () => {
        const gate = deferred<void>();
        gates.push(gate);
        return gate.promise;
      },
      budgetMs: 10_000,
      onFailure: () => {},
    });
    runner.start(0);
    await turn();
    let drained = false;
    const draining = runner.drain().then(() => {
      drained = true;
    });
    // Continuous traffic: every follow-up that finishes is replaced by a new one.
    for (let i = 1; i <= 20; i += 1) {
      runner.start(i);
      await turn();
      if (i === 10) gates[0]?.resolve(undefined);
    }
    await draining;
    expect(drained).toBe(true);
    expect(runner.pending).toBe(20);
    for (const gate of gates) gate.resolve(undefined);
    await runner.drain();
  });

  it('rejects drain with the signal reason when the signal aborts first', async () => {
    const gate = deferred();
    const runner = new FollowUpRunner<string>({
      send: () => gate.promise,
      budgetMs: 10_000,
      onFailure: () => {},
    });
    runner.start('a');
    const controller = new AbortController();
    const draining = runner.drain(controller.signal);
    controller.abort(new Error('stop deadline'));
    await expect(draining).rejects.toThrow('stop deadline');
    gate.resolve();
    await runner.drain();
  });

  it('refuses a non-positive budget, naming it', () => {
    expect(
      () => new FollowUpRunner({ send: async () => {}, budgetMs: 0, onFailure: () => {} }),
    ).toThrow(/budgetMs/);
  });
});
