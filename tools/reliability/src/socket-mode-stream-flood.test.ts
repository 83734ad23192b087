import { buildAppMentionEvent, type FakeSocketMode, startFakeSocketMode } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './support/deferred.js';
import { recordFigures, sized } from './support/figures.js';
import { BED_SECRET, BED_TOKEN, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { planFlood } from './support/slack-flood.js';
import { checkStreams, StreamLedger, slackReplies } from './support/stream-ledger.js';

const MAX_DETACHED = 16;
const APP_TOKEN = 'xapp-1-reliability-stream-app-token-91d3';
const BURST = 24;

describe('a Slack Socket Mode flood of streamed replies far above the admission bound', () => {
  let bed: SlackBed | undefined;
  let fake: FakeSocketMode | undefined;
  afterEach(async () => {
    await bed?.close();
    await fake?.close();
    bed = fake = undefined;
  });

  it.each([
    ['slack-stream', true],
    ['slack-update', false],
  ] as const)(
    'on the %s path, streams every event to its whole text once, through redeliveries and the rate limits',
    async (path: string, native: boolean) => {
      // Unacked envelopes come back after 300 ms, 3 s, 9 s: past a burst's rate-limited streams.
      fake = await startFakeSocketMode({ redeliverAfterMs: [300, 3000, 9000] });
      bed = await startSlackBed({
        adapter: {
          socketMode: {
            appToken: APP_TOKEN,
            apiUrl: fake.apiUrl,
            reconnectMinDelayMs: 10,
            reconnectMaxDelayMs: 50,
          },
          stream: { native, appendIntervalMs: 30, updateIntervalMs: 30 },
        },
        webApi: {
          rateLimits: {
            'chat.startStream': { limit: 10, windowMs: 1000 },
            'chat.appendStream': { limit: 30, windowMs: 1000 },
            'chat.stopStream': { limit: 10, windowMs: 1000 },
            'chat.update': { limit: 20, windowMs: 1000 },
          },
        },
        runtime: { maxDetached: MAX_DETACHED, concurrency: 'queue' },
      });
      const ledger = new StreamLedger();
      bed.runtime.onMention(ledger.handler({ keyOf: (event) => event.id, chunks: 8, gapMs: 15 }));
      await bed.runtime.start();
      await fake.waitForConnection(1);

      const plan = planFlood({
        events: sized(2 * BURST, 10 * BURST),
        commands: 0,
        tenants: ['T1', 'T2', 'T3'],
        hotShare: 0.34,
        burstSize: BURST,
        burstGapMs: 14_000,
        seed: 31,
      });
      const f = fake;
      const start = performance.now();
      for (const item of plan) {
        const wait = start + item.atMs - performance.now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        f.send(
          buildAppMentionEvent({
            eventId: item.id,
            teamId: item.tenant,
            channel: `C${item.tenant}`,
            ts: `1800000000.${item.id.slice(2)}`,
          }),
        );
      }
      const acked = (id: string) =>
        f.deliveriesOf(id).some((e) => f.acksOf(e.envelope_id).length > 0);
      await until(() =>
        plan.every(
          (item) => acked(item.id) || f.expired.some((e) => e.payload.event_id === item.id),
        ),
      );
      await bed.runtime.shutdown({ graceMs: 20_000 });

      expect(f.expired).toEqual([]);
      const stats = bed.runtime.stats();
      for (const item of plan) expect(ledger.handled.counts.get(item.id)).toBe(1);
      expect(stats.accepted).toBe(plan.length);
      expect(stats.outcomes.completed).toBe(stats.accepted);
      expect(stats.outcomes['admission-rejected']).toBeGreaterThan(0);
      expect(f.sent.filter((e) => (e.retry_attempt ?? 0) > 0).length).toBeGreaterThan(0);

      const { messages } = bed.webApi;
      const { violations, figures } = checkStreams({
        ledger,
        shown: slackReplies(messages.all()),
        observations: bed.log.observations,
        allowed: ['completed'],
        minRetryAfterMs: 1000,
      });
      expect(violations).toEqual([]);
      const paths = new Set(
        bed.log.observations.flatMap((o) => (o.type === 'stream_finished' ? [o.path] : [])),
      );
      expect(paths.has(path)).toBe(true);
      if (!native) expect(paths).toEqual(new Set([path]));
      const refused = [...messages.refused.values()].reduce((sum, n) => sum + n, 0);
      expect(refused).toBeGreaterThan(0);
      expect(figures.rateLimited).toBe(refused);
      expect(ledger.peakActive).toBeLessThanOrEqual(MAX_DETACHED);
      expect(stats.detachedHighWater).toBe(MAX_DETACHED);
      expect(bed.log.leaks([BED_SECRET, BED_TOKEN, APP_TOKEN])).toEqual([]);
      const durations = bed.log.observations.flatMap((o) =>
        o.type === 'stream_finished' ? [o.durationMs] : [],
      );
      recordFigures(`socket-mode-stream-flood-${path}`, {
        ...figures,
        longestStreamMs: Math.max(...durations),
        sent: plan.length,
        envelopes: f.sent.length,
        rejected: stats.outcomes['admission-rejected'],
        refusedByMethod: Object.fromEntries(messages.refused),
        peakActiveStreams: ledger.peakActive,
        maxDetached: MAX_DETACHED,
      });
    },
  );
});
