import { DEFAULT_SLACK_ADAPTER_OPTIONS, type SlackAdapterOptions } from '@rt/adapter-slack';
import type { FakeSlackRateLimit } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { recordFigures, sized } from './support/figures.js';
import { checkSlackFlood } from './support/slack-accounting.js';
import { BED_SECRET, BED_TOKEN, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { planFlood, retryHorizonMs, SlackFlood } from './support/slack-flood.js';
import { checkStreams, StreamLedger, slackReplies } from './support/stream-ledger.js';

const MAX_DETACHED = 16;
/** Slack's retries at once, +1 s, +5 s: the horizon outlives a burst's rate-limited streams. */
const TIME_SCALE = 60;
const BURST = 24;
const BURST_GAP_MS = retryHorizonMs(TIME_SCALE) + 3000;
/**
 * Slack's tiers compressed to one second, tight enough that a burst of streams meets them: the
 * fake answers 429 with `Retry-After` (whole seconds) past each, per method and token (the bed has
 * one token, so every stream shares each budget, as streams of one workspace do).
 */
const RATE_LIMITS: Readonly<Record<string, FakeSlackRateLimit>> = {
  'chat.startStream': { limit: 10, windowMs: 1000 },
  'chat.appendStream': { limit: 30, windowMs: 1000 },
  'chat.stopStream': { limit: 10, windowMs: 1000 },
  'chat.update': { limit: 20, windowMs: 1000 },
};
/** The bed's WebClient policy (no retries of its own), without its rate-limit log lines. */
const QUIET_WEB_CLIENT = {
  retryConfig: { retries: 0 },
  logger: {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: () => {},
    setLevel: () => {},
    getLevel: () => 'error',
    setName: () => {},
  },
} as unknown as SlackAdapterOptions['webClientOptions'];
const STREAM_METHODS = ['chat.startStream', 'chat.appendStream', 'chat.stopStream', 'chat.update'];

describe('a Slack HTTP flood of streamed replies far above the admission bound', () => {
  let bed: SlackBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it.each([
    ['slack-stream', true],
    ['slack-update', false],
  ] as const)(
    'on the %s path, every accepted delivery shows its whole text, every 429 is waited out, and the observations match the fake',
    async (path: string, native: boolean) => {
      bed = await startSlackBed({
        runtime: { maxDetached: MAX_DETACHED, concurrency: 'queue' },
        adapter: {
          stream: { native, appendIntervalMs: 30, updateIntervalMs: 30 },
          webClientOptions: QUIET_WEB_CLIENT,
        },
        webApi: { rateLimits: RATE_LIMITS },
      });
      const ledger = new StreamLedger();
      bed.runtime.onMention(ledger.handler({ keyOf: (event) => event.id, chunks: 8, gapMs: 15 }));
      const plan = planFlood({
        events: sized(2 * BURST, 10 * BURST),
        commands: 0,
        tenants: ['T1', 'T2', 'T3'],
        hotShare: 0.34,
        burstSize: BURST,
        burstGapMs: BURST_GAP_MS,
        seed: 23,
      });
      const flood = new SlackFlood({
        url: bed.url,
        secret: BED_SECRET,
        timeScale: TIME_SCALE,
        log: bed.log,
        responseUrl: () => bed!.webApi.responseUrl(),
      });
      await flood.run(plan);
      await bed.runtime.shutdown({ graceMs: 20_000 });

      const stats = bed.runtime.stats();
      const accounting = checkSlackFlood({
        flood,
        handled: ledger.handled,
        stats,
        observations: bed.log.observations,
        refusalTexts: [DEFAULT_SLACK_ADAPTER_OPTIONS.busyText],
      });
      expect(accounting.violations).toEqual([]);
      expect(accounting.figures.rejectedByReason.capacity).toBeGreaterThan(0);
      expect(accounting.figures.retried).toBeGreaterThan(0);

      const { messages } = bed.webApi;
      const streams = checkStreams({
        ledger,
        shown: slackReplies(messages.all()),
        observations: bed.log.observations,
        allowed: ['completed'],
        minRetryAfterMs: 1000,
      });
      expect(streams.violations).toEqual([]);
      expect(streams.figures.streams).toBe(stats.accepted);
      // Every native stream was stopped. A reply whose whole text was in before its first write
      // landed (its `chat.startStream` was rate-limited until the source ended) is posted as one
      // message, on the update path; the update path never opens a native stream.
      const paths = new Map<string, string>();
      for (const o of bed.log.observations) {
        if (o.type === 'stream_finished') paths.set(`Ev${o.event.id.slice(2)}`, o.path);
      }
      expect(paths.size).toBe(stats.accepted);
      expect([...paths.values()]).toContain(path);
      if (!native) expect(new Set(paths.values())).toEqual(new Set([path]));
      for (const message of messages.all()) {
        const key = `Ev${message.threadTs?.slice('1800000000.'.length)}`;
        expect(message.stream).toBe(paths.get(key) === 'slack-stream' ? 'stopped' : undefined);
      }
      // The fake's limits were met (429s answered) and every 429 reached the stream scheduler,
      // which waited it out and wrote the same text again: none was lost or retried blindly.
      const refused = STREAM_METHODS.reduce((sum, m) => sum + (messages.refused.get(m) ?? 0), 0);
      expect(refused).toBeGreaterThan(0);
      expect(streams.figures.rateLimited).toBe(refused);
      // At most one stream per admission slot: the memory streams hold is bounded by the cap.
      expect(ledger.peakActive).toBeLessThanOrEqual(MAX_DETACHED);
      expect(stats.detachedHighWater).toBe(MAX_DETACHED);
      expect(bed.log.leaks([BED_SECRET, BED_TOKEN])).toEqual([]);
      expect(bed.listenerErrors).toEqual([]);

      recordFigures(`slack-stream-flood-${path}`, {
        ...accounting.figures,
        ...streams.figures,
        refusedByMethod: Object.fromEntries(messages.refused),
        peakActiveStreams: ledger.peakActive,
        maxDetached: MAX_DETACHED,
      });
    },
  );
});
