import { DEFAULT_SLACK_ADAPTER_OPTIONS } from '@rt/adapter-slack';
import { afterEach, describe, expect, it } from 'vitest';
import { recordFigures, sized } from './support/figures.js';
import { HandledLedger } from './support/handled-ledger.js';
import { checkSlackFlood } from './support/slack-accounting.js';
import { BED_SECRET, BED_TOKEN, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { planFlood, retryHorizonMs, SlackFlood } from './support/slack-flood.js';

const MAX_DETACHED = 16;
const PER_TENANT = 6;
const HANDLER_MS = 15;
/** Slack's 6-minute retry horizon in 300 ms. */
const TIME_SCALE = 1200;
const TENANTS = ['THOT', 'TCOLD1', 'TCOLD2', 'TCOLD3'];
const BURST_GAP_MS = retryHorizonMs(TIME_SCALE) + 4 * HANDLER_MS;

describe('a Slack HTTP flood far above the admission bound', () => {
  let bed: SlackBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('handles every event exactly once through Slack retries, refuses commands visibly, and holds both bounds', async () => {
    bed = await startSlackBed({
      runtime: {
        maxDetached: MAX_DETACHED,
        maxDetachedPerTenant: PER_TENANT,
        concurrency: 'queue',
      },
      hot: { tenant: 'THOT', ceiling: PER_TENANT },
    });
    const handled = new HandledLedger();
    bed.runtime.onMention(handled.slow(HANDLER_MS, (event) => event.id));
    bed.runtime.onCommand(
      'flood',
      handled.slow(HANDLER_MS, (event) => event.text ?? ''),
    );

    const plan = planFlood({
      events: sized(300, 3000),
      commands: sized(40, 400),
      tenants: TENANTS,
      hotShare: 0.3,
      burstSize: 2 * MAX_DETACHED,
      burstGapMs: BURST_GAP_MS,
      seed: 14,
    });
    // The plan fits Slack's three retries: no installation sends a burst more than three times
    // its ceiling (first try, +1 min, +5 min each admit up to a ceiling), so an event Slack gives
    // up on would be the runtime's failure, not the plan's.
    const perBurst = new Map<string, number>();
    for (const item of plan) {
      const key = `${Math.floor(item.atMs / BURST_GAP_MS)}:${item.tenant}`;
      perBurst.set(key, (perBurst.get(key) ?? 0) + 1);
    }
    expect(Math.max(...perBurst.values())).toBeLessThanOrEqual(3 * PER_TENANT);
    const flood = new SlackFlood({
      url: bed.url,
      secret: BED_SECRET,
      timeScale: TIME_SCALE,
      log: bed.log,
      responseUrl: () => bed!.webApi.responseUrl(),
    });
    await flood.run(plan);
    await bed.runtime.shutdown({ graceMs: 10_000 });

    const stats = bed.runtime.stats();
    const { violations, figures } = checkSlackFlood({
      flood,
      handled,
      stats,
      observations: bed.log.observations,
      refusalTexts: [DEFAULT_SLACK_ADAPTER_OPTIONS.busyText],
    });
    expect(violations).toEqual([]);
    expect(figures.sent).toBe(plan.length);
    expect(figures.exhausted).toBe(0);
    expect(figures.owedRetry).toBe(0);
    // The flood really exceeded the bound, and Slack's retries carried the refused events.
    expect(figures.rejectedByReason.capacity).toBeGreaterThan(0);
    expect(figures.retried).toBeGreaterThan(0);
    expect(figures.commandsBusy).toBeGreaterThan(0);

    // In flight never above the cap; a capacity rejection means it was reached.
    const { sampler } = bed;
    expect(sampler.peakInFlight).toBe(MAX_DETACHED);
    // The runtime's own high-water mark agrees: the bound was reached and never passed.
    expect(stats.detachedHighWater).toBe(MAX_DETACHED);
    // The hot installation was held to its ceiling while the others kept being admitted.
    expect(sampler.peakPerTenant.get('slack:THOT')).toBe(PER_TENANT);
    for (const peak of sampler.peakPerTenant.values()) expect(peak).toBeLessThanOrEqual(PER_TENANT);
    const hotRefusals = bed.log.observations.filter(
      (o) =>
        o.type === 'admission_rejected' && o.reason === 'tenant-capacity' && o.tenant === 'THOT',
    );
    expect(hotRefusals.length).toBeGreaterThan(0);
    expect(sampler.othersAdmittedWhileHotAtCeiling).toBeGreaterThan(0);

    // Nothing the run emitted carries the signing secret or the bot token.
    expect(bed.log.size).toBeGreaterThan(plan.length);
    expect(bed.log.leaks([BED_SECRET, BED_TOKEN])).toEqual([]);
    expect(bed.listenerErrors).toEqual([]);

    recordFigures('slack-http-flood', {
      ...figures,
      maxDetached: MAX_DETACHED,
      maxDetachedPerTenant: PER_TENANT,
      peakInFlight: sampler.peakInFlight,
      peakHotTenant: sampler.peakPerTenant.get('slack:THOT'),
      othersAdmittedWhileHotAtCeiling: sampler.othersAdmittedWhileHotAtCeiling,
      samples: sampler.samples,
    });
  });
});
