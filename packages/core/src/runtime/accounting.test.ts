import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RtEvent } from '../event/event.js';
import { ACCEPTED_OUTCOMES, OUTCOMES } from '../outcomes/outcome.js';
import { setup } from '../test-support/setup.js';
import { makeEvent } from '../test-support/test-adapter.js';
import type { StrategyName } from './options.js';

/** Small deterministic PRNG (mulberry32) so a failure replays. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

describe('accounting invariant: every delivery reaches exactly one terminal outcome', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each<[StrategyName, number]>([
    ['drop', 1],
    ['queue', 2],
    ['debounce', 3],
    ['concurrent', 4],
    ['burst', 5],
  ])(
    'holds for %s under a randomized mix with shutdown in the middle (seed %i)',
    async (strategy, seed) => {
      const random = prng(seed);
      const maxDetached = 64;
      let boundViolations = 0;
      const { runtime, adapter, state, observations } = setup({
        maxDetached,
        maxDetachedPerTenant: 40,
        detachTimeoutMs: 400,
        lockTtlMs: 900,
        concurrency: {
          strategy,
          maxConcurrent: 2,
          debounceMs: 30,
          burstWindowMs: 40,
          maxBatch: 4,
          lockPollInitialMs: 10,
          lockPollMaxMs: 80,
        },
        observers: [
          () => void (runtime.stats().detachedInFlight > maxDetached && boundViolations++),
        ],
      });
      adapter.shapeModes.set('modal', 'sync');
      state.faults.markEvent = () => (random() < 0.03 ? new Error('flaky state') : undefined);
      state.faults.renewLock = () => (random() < 0.05 ? false : undefined);
      runtime.onMessage(async (ctx) => {
        const roll = random();
        if (roll < 0.15) throw new Error('handler bug');
        if (roll < 0.3) return sleep(600); // ignores its signal, outlives detachTimeoutMs
        return sleep(Math.floor(random() * 200), ctx.signal);
      });
      runtime.onCommand('never-sent', () => {});

      const seen: RtEvent[] = [];
      const settled: Promise<unknown>[] = [];
      const rejectionReasons: string[] = [];
      let shutdown: Promise<void> | undefined;
      const total = 2000;
      for (let i = 0; i < total; i += 1) {
        const r = random();
        let event: RtEvent;
        if (r < 0.05 && seen.length > 0) event = seen[Math.floor(random() * seen.length)]!;
        else {
          event = makeEvent({
            adapter: 'test',
            tenant: `T${Math.floor(random() * 3)}`,
            thread: `th${Math.floor(random() * 12)}`,
            shape: random() < 0.1 ? 'modal' : 'message',
            kind: random() < 0.03 ? 'reaction' : 'message',
          });
          seen.push(event);
        }
        const outcome = runtime.dispatch(event).then(
          (result) => {
            if (result.status === 'accepted') settled.push(result.settled);
          },
          (error: { reason?: string; code?: string }) => {
            rejectionReasons.push(error.reason ?? error.code ?? 'unknown');
          },
        );
        settled.push(outcome);
        if (i === total / 2) shutdown = runtime.shutdown({ graceMs: 250 });
        if (random() < 0.3) await vi.advanceTimersByTimeAsync(Math.floor(random() * 25));
      }
      await vi.advanceTimersByTimeAsync(5_000);
      await shutdown;
      await Promise.all(settled);
      await Promise.all(settled); // settled promises pushed late

      const stats = runtime.stats();
      const counts = stats.outcomes;
      const sum = (keys: readonly string[]) =>
        keys.reduce((acc, key) => acc + counts[key as keyof typeof counts], 0);
      expect(stats.received).toBe(total);
      expect(sum(OUTCOMES)).toBe(stats.received);
      expect(sum(ACCEPTED_OUTCOMES)).toBe(stats.accepted);
      expect(observations.filter((o) => o.type === 'dispatch_finished')).toHaveLength(total);
      expect(stats).toMatchObject({ detachedInFlight: 0, parked: 0, syncInFlight: 0 });
      expect(stats.perTenantInFlight).toEqual({});
      expect(boundViolations).toBe(0);
      // The mix really exercised the interesting paths.
      expect(counts.shutdown + counts['admission-rejected']).toBeGreaterThan(0);
      expect(counts.failed).toBeGreaterThan(0);
      expect(counts.duplicate + counts['prelude-error']).toBeGreaterThan(0);
      expect(rejectionReasons.filter((r) => r === 'shutdown').length).toBeGreaterThan(0);
      expect(counts['admission-rejected'] + counts['prelude-error']).toBe(rejectionReasons.length);
    },
  );
});
