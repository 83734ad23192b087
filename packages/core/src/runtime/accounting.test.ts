import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RtEvent } from '../event/event.js';
import type { Observation } from '../observe/observation.js';
import { ACCEPTED_OUTCOMES, OUTCOMES, type Outcome } from '../outcomes/outcome.js';
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

/** Everything seen of one event id across its deliveries (a re-sent event shares the id). */
interface Track {
  /** `dispatch` calls with this id. */
  dispatches: number;
  /** `dispatch_admitted` observations. */
  admitted: number;
  /** Outcomes of its `dispatch_finished` observations, in order. */
  finished: Outcome[];
  /** Accepted deferred results, and how often their `settled` resolved. */
  acceptedDeferred: number;
  settledResolutions: number;
  settledOutcome?: Outcome;
  /** Sync results that ran the strategy (`status: 'completed'`). */
  completedSync: Outcome[];
}

const isAcceptedOutcome = (outcome: Outcome) => ACCEPTED_OUTCOMES.includes(outcome);

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
      const maxDetached = 24;
      const maxDetachedPerTenant = 12;
      const tracks = new Map<string, Track>();
      const track = (id: string): Track => {
        let t = tracks.get(id);
        if (!t) {
          t = {
            dispatches: 0,
            admitted: 0,
            finished: [],
            acceptedDeferred: 0,
            settledResolutions: 0,
            completedSync: [],
          };
          tracks.set(id, t);
        }
        return t;
      };
      // Measured from observations and handler calls only, never from runtime.stats(): deferred
      // deliveries admitted and not yet finished, per tenant, and handlers running per event id.
      const pending = new Map<string, string>(); // event id -> tenant
      let maxPending = 0;
      let maxPendingPerTenant = 0;
      const running = new Map<string, number>();
      let runningDeferred = 0;
      let maxRunningDeferred = 0;
      const handled = new Set<string>();
      const violations: string[] = [];
      const observer = (o: Observation) => {
        if (o.type === 'dispatch_admitted') {
          const t = track(o.event.id);
          t.admitted += 1;
          if (o.mode === 'deferred') {
            pending.set(o.event.id, o.event.tenant);
            maxPending = Math.max(maxPending, pending.size);
            const ofTenant = [...pending.values()].filter((x) => x === o.event.tenant).length;
            maxPendingPerTenant = Math.max(maxPendingPerTenant, ofTenant);
          }
        } else if (o.type === 'dispatch_finished') {
          track(o.event.id).finished.push(o.outcome);
          if (!isAcceptedOutcome(o.outcome)) return; // e.g. a redelivery found a duplicate
          pending.delete(o.event.id);
          // A slot is given back only after the handler's promise settled.
          if (running.has(o.event.id)) violations.push(`${o.event.id} finished while running`);
        }
      };
      const { runtime, state, observations } = setup(
        {
          maxDetached,
          maxDetachedPerTenant,
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
          observers: [observer],
        },
        { shapeModes: { modal: 'sync' } },
      );
      state.faults.markEvent = () => (random() < 0.03 ? new Error('flaky state') : undefined);
      state.faults.renewLock = () => (random() < 0.05 ? false : undefined);
      runtime.onMessage(async (ctx) => {
        const ids = ctx.batch.map((e) => e.id);
        for (const id of ids) {
          const t = tracks.get(id);
          // Handlers run only for admitted deliveries that have not finished, each at most once.
          if (t?.admitted !== 1) violations.push(`${id} handled without admission`);
          else if (t.finished.some(isAcceptedOutcome))
            violations.push(`${id} handled after finish`);
          if (handled.has(id)) violations.push(`${id} handled twice`);
          handled.add(id);
          running.set(id, (running.get(id) ?? 0) + 1);
        }
        for (const skipped of ctx.skipped) {
          const outcomes = tracks.get(skipped.id)?.finished.filter(isAcceptedOutcome);
          if (outcomes?.join() !== 'superseded')
            violations.push(`${skipped.id} skipped unfinished`);
        }
        if (ctx.mode === 'deferred') {
          runningDeferred += 1;
          maxRunningDeferred = Math.max(maxRunningDeferred, runningDeferred);
        }
        try {
          const roll = random();
          if (roll < 0.15) throw new Error('handler bug');
          if (roll < 0.3) return await sleep(600); // ignores its signal, outlives detachTimeoutMs
          return await sleep(Math.floor(random() * 200), ctx.signal);
        } finally {
          if (ctx.mode === 'deferred') runningDeferred -= 1;
          for (const id of ids) {
            const left = running.get(id)! - 1;
            if (left === 0) running.delete(id);
            else running.set(id, left);
          }
        }
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
        const t = track(event.id);
        t.dispatches += 1;
        const outcome = runtime.dispatch(event).then(
          (result) => {
            if (result.status === 'accepted') {
              t.acceptedDeferred += 1;
              settled.push(
                result.settled.then((finished) => {
                  t.settledResolutions += 1;
                  t.settledOutcome = finished.outcome;
                  if (finished.event.id !== event.id)
                    violations.push(`${event.id} settled as other`);
                }),
              );
            } else if (result.status === 'completed') {
              t.completedSync.push(result.outcome);
            }
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

      expect(violations).toEqual([]);
      // Per event id: one terminal observation per delivery; one accepted outcome per admission.
      const mismatches: string[] = [];
      for (const [id, t] of tracks) {
        const accepted = t.finished.filter(isAcceptedOutcome);
        if (t.finished.length !== t.dispatches) mismatches.push(`${id}: finished ${t.finished}`);
        if (t.admitted > 1 || accepted.length !== t.admitted) {
          mismatches.push(`${id}: admitted ${t.admitted}, accepted outcomes ${accepted}`);
        }
        if (t.acceptedDeferred + t.completedSync.length !== t.admitted) {
          mismatches.push(`${id}: admitted ${t.admitted}, results ${t.acceptedDeferred}`);
        }
        if (t.settledResolutions !== t.acceptedDeferred) {
          mismatches.push(`${id}: settled resolved ${t.settledResolutions} times`);
        }
        if (t.acceptedDeferred === 1 && t.settledOutcome !== accepted[0]) {
          mismatches.push(`${id}: settled ${t.settledOutcome}, observed ${accepted[0]}`);
        }
        if (t.completedSync.length === 1 && t.completedSync[0] !== accepted[0]) {
          mismatches.push(`${id}: sync result ${t.completedSync[0]}, observed ${accepted[0]}`);
        }
      }
      expect(mismatches).toEqual([]);
      // The bound, measured independently: admitted-but-unfinished deferred deliveries (and the
      // deferred handlers among them) never exceed maxDetached, per tenant never its ceiling.
      expect(pending.size).toBe(0);
      expect(maxPending).toBeLessThanOrEqual(maxDetached);
      expect(maxPendingPerTenant).toBeLessThanOrEqual(maxDetachedPerTenant);
      expect(maxRunningDeferred).toBeLessThanOrEqual(maxDetached);
      expect(running.size).toBe(0);
      // The mix saturates the bound (and the tenant ceiling), so the checks above are tight.
      expect(maxPending).toBeGreaterThanOrEqual(maxDetached - 2);
      expect(maxPendingPerTenant).toBeGreaterThanOrEqual(maxDetachedPerTenant - 2);

      const stats = runtime.stats();
      const counts = stats.outcomes;
      const sum = (keys: readonly string[]) =>
        keys.reduce((acc, key) => acc + counts[key as keyof typeof counts], 0);
      expect(stats.received).toBe(total);
      expect(sum(OUTCOMES)).toBe(stats.received);
      expect(sum(ACCEPTED_OUTCOMES)).toBe(stats.accepted);
      expect(observations.filter((o) => o.type === 'dispatch_finished')).toHaveLength(total);
      expect(observations.filter((o) => o.type === 'dispatch_admitted')).toHaveLength(
        stats.accepted,
      );
      expect(stats).toMatchObject({ detachedInFlight: 0, parked: 0, syncInFlight: 0 });
      expect(stats.perTenantInFlight).toEqual({});
      // The mix really exercised the interesting paths.
      expect(counts.shutdown + counts['admission-rejected']).toBeGreaterThan(0);
      expect(counts.failed).toBeGreaterThan(0);
      expect(counts.duplicate + counts['prelude-error']).toBeGreaterThan(0);
      expect(rejectionReasons.filter((r) => r === 'shutdown').length).toBeGreaterThan(0);
      expect(counts['admission-rejected'] + counts['prelude-error']).toBe(rejectionReasons.length);
    },
  );
});
