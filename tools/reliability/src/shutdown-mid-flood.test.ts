import { ACCEPTED_OUTCOMES, type Outcome, type StrategyName } from '@rt/core';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred, pause, until } from './support/deferred.js';
import { recordFigures, sized } from './support/figures.js';
import { HandledLedger } from './support/handled-ledger.js';
import { BED_SECRET, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { planFlood, SlackFlood } from './support/slack-flood.js';

const GRACE_MS = 100;
const ABANDON_MS = 100;

describe('shutdown in the middle of a flood', () => {
  let bed: SlackBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it.each([
    ['queue', 'parked waiters'],
    ['burst', 'open bursts'],
  ] as const)(
    'under %s, with %s, running and signal-ignoring handlers: every admitted delivery gets one terminal outcome within the budget',
    async (strategy: StrategyName, _shape: string) => {
      bed = await startSlackBed({
        runtime: {
          maxDetached: 128,
          concurrency: { strategy, burstWindowMs: 200, maxBatch: 5 },
          shutdownGraceMs: GRACE_MS,
          shutdownAbandonMs: ABANDON_MS,
        },
      });
      const never = deferred();
      const handled = new HandledLedger();
      let ignorers = 0;
      bed.runtime.onMention(async (ctx) => {
        handled.record(ctx.event.id);
        // One handler in five ignores its signal: shutdown must abandon it, not wait for it.
        if (ctx.event.id.endsWith('5') || ctx.event.id.endsWith('0')) {
          ignorers += 1;
          await never.promise;
          return;
        }
        // The rest work 30 ms, or until shutdown's grace aborts them.
        await pause(30, ctx.signal).catch(() => undefined);
      });
      const plan = planFlood({
        events: sized(200, 2000),
        commands: 0,
        tenants: ['T1', 'T2'],
        hotShare: 0.5,
        burstSize: 10,
        burstGapMs: 10,
        seed: 21,
        threads: 6,
      });
      const b = bed;
      const flood = new SlackFlood({
        url: b.url,
        secret: BED_SECRET,
        timeScale: 1200,
        log: b.log,
        responseUrl: () => b.webApi.responseUrl(),
      });
      const stopFlood = new AbortController();
      const run = flood.run(plan, stopFlood.signal);
      await until(() => flood.counters.eventsAcked >= 40 && b.runtime.stats().parked > 0);
      const parkedAtShutdown = b.runtime.stats().parked;
      const runningAtShutdown = b.runtime.stats().detachedInFlight - parkedAtShutdown;
      const startedAt = performance.now();
      const shutdown = b.runtime.shutdown();
      const budget = new Promise<'over budget'>((resolve) => {
        const timer = setTimeout(() => resolve('over budget'), GRACE_MS + ABANDON_MS + 5000);
        void shutdown.finally(() => clearTimeout(timer));
      });
      // Shutdown converges while the flood keeps coming.
      expect(await Promise.race([shutdown.then(() => 'resolved' as const), budget])).toBe(
        'resolved',
      );
      const shutdownMs = Math.round(performance.now() - startedAt);
      stopFlood.abort();
      await run;

      const stats = b.runtime.stats();
      const finished = b.log.observations.filter((o) => o.type === 'dispatch_finished');
      const acceptedOutcomes = finished.filter((o) =>
        (ACCEPTED_OUTCOMES as readonly Outcome[]).includes(o.outcome),
      );
      // One terminal outcome per accepted delivery, and the books balance.
      expect(acceptedOutcomes.length).toBe(stats.accepted);
      expect(new Set(acceptedOutcomes.map((o) => o.event.id)).size).toBe(stats.accepted);
      expect(ACCEPTED_OUTCOMES.reduce((sum, outcome) => sum + stats.outcomes[outcome], 0)).toBe(
        stats.accepted,
      );
      // Parked work ended `shutdown` at once; signal-ignorers were abandoned with `shutdown` too.
      expect(stats.outcomes.shutdown).toBeGreaterThan(0);
      expect(stats.outcomes.completed).toBeGreaterThan(0);
      // Nothing about a delivery follows its terminal outcome.
      const endedAt = new Map(
        acceptedOutcomes.map((o) => [o.event.id, b.log.observations.indexOf(o)]),
      );
      b.log.observations.forEach((o, index) => {
        if (
          o.type === 'dispatch_finished' &&
          !(ACCEPTED_OUTCOMES as readonly Outcome[]).includes(o.outcome)
        )
          return;
        if (!('event' in o) || o.type === 'admission_rejected') return;
        const end = endedAt.get(o.event.id);
        if (end !== undefined) expect(index).toBeLessThanOrEqual(end);
      });
      // Every acknowledged event ended one way: handled (completed), seen by a survivor, or shutdown.
      for (const entry of flood.events.values()) {
        if (entry.status !== 'acked') {
          // Never acknowledged: owed a retry, or (when the bound or shutdown refused all four
          // tries) refused every time with a 503, which Slack saw.
          expect(['retry-cancelled', 'awaiting-retry', 'exhausted']).toContain(entry.status);
          for (const a of entry.attempts) {
            expect(a.result.kind !== 'response' || a.result.status === 503).toBe(true);
          }
          continue;
        }
        expect(endedAt.has(entry.item.id)).toBe(true);
      }
      // Deliveries that arrived after shutdown started were refused with the retry signal.
      const shutdownObservedAt = b.log.observations.findIndex((o) => o.type === 'shutdown_started');
      expect(shutdownObservedAt).toBeGreaterThanOrEqual(0);
      const late = [...flood.events.values()].flatMap((e) =>
        e.attempts.filter((a) => a.startedAt > startedAt),
      );
      // Never acknowledged: a 503 (Slack retries it), or, on a starved machine, no answer within
      // Slack's 3 s (which Slack retries too). Never a 2xx.
      for (const attempt of late) {
        if (attempt.result.kind === 'response') expect(attempt.result.status).toBe(503);
        else expect(attempt.result.kind).toBe('timeout');
      }
      const refusedAfterShutdown = late.filter((a) => a.result.kind === 'response').length;
      // Abandoned handlers keep their slots until they settle; then nothing is held.
      never.resolve();
      await until(() => b.runtime.stats().detachedInFlight === 0);
      recordFigures(`shutdown-mid-flood-${strategy}`, {
        sent: flood.counters.sent,
        accepted: stats.accepted,
        parkedAtShutdown,
        runningAtShutdown,
        ignorers,
        outcomes: stats.outcomes,
        refusedAfterShutdown,
        unansweredAfterShutdown: late.length - refusedAfterShutdown,
        shutdownMs,
        budgetMs: GRACE_MS + ABANDON_MS,
      });
    },
  );
});
