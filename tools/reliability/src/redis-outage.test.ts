import { DEFAULT_SLACK_ADAPTER_OPTIONS } from '@rt/adapter-slack';
import { createRedisState } from '@rt/state-redis';
import { afterEach, describe, expect, it } from 'vitest';
import { pause, until } from './support/deferred.js';
import { recordFigures, sized } from './support/figures.js';
import { HandledLedger } from './support/handled-ledger.js';
import { type PrivateRedisServer, startRedisServer } from './support/redis.js';
import { checkSlackFlood } from './support/slack-accounting.js';
import { BED_SECRET, BED_TOKEN, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { planFlood, SlackFlood } from './support/slack-flood.js';

/** Slack's retries at once, +600 ms, +3 s: the horizon (3.6 s) outlives the outage. */
const TIME_SCALE = 100;
/**
 * Six command budgets (250 ms): on a loaded machine a refusal inside the outage takes up to a
 * second, and some must start and end wholly inside it.
 */
const OUTAGE_MS = 1500;
const { busyText, unavailableText } = DEFAULT_SLACK_ADAPTER_OPTIONS;

describe('Redis stopped mid-flood and restarted', () => {
  let bed: SlackBed | undefined;
  let server: PrivateRedisServer | undefined;
  afterEach(async () => {
    await bed?.close();
    await server?.dispose();
    bed = undefined;
    server = undefined;
  });

  it('refuses every delivery of the outage honestly, recovers without a restart, and loses nothing acknowledged', async () => {
    server = await startRedisServer();
    const state = createRedisState({
      url: server.url,
      commandTimeoutMs: 250,
      connectTimeoutMs: 250,
      maxReconnectDelayMs: 50,
    });
    bed = await startSlackBed({
      state,
      runtime: { maxDetached: 64, concurrency: 'queue', lockTtlMs: 3000 },
    });
    const handled = new HandledLedger();
    bed.runtime.onMention(handled.slow(10, (event) => event.id));
    bed.runtime.onCommand(
      'flood',
      handled.slow(10, (event) => event.text ?? ''),
    );

    const plan = planFlood({
      events: sized(150, 600),
      commands: sized(30, 120),
      tenants: ['T1', 'T2', 'T3'],
      hotShare: 0.34,
      burstSize: 5,
      burstGapMs: 50,
      seed: 7,
    });
    const flood = new SlackFlood({
      url: bed.url,
      secret: BED_SECRET,
      timeScale: TIME_SCALE,
      log: bed.log,
      responseUrl: () => bed!.webApi.responseUrl(),
    });
    const run = flood.run(plan);
    await until(() => flood.counters.eventsAcked >= 30);
    await server.stop();
    const stoppedAt = performance.now();
    await pause(OUTAGE_MS);
    const restartingAt = performance.now();
    await server.restart();
    await run;
    await until(() => bed!.runtime.stats().detachedInFlight === 0);
    await bed.runtime.shutdown({ graceMs: 5000 });

    const { violations, figures } = checkSlackFlood({
      flood,
      handled,
      stats: bed.runtime.stats(),
      observations: bed.log.observations,
      refusalTexts: [busyText, unavailableText],
      // No `lostStateReplies`: a mark sent as the connection came back can land after its 250 ms
      // budget and be refused, but the State remembers it in doubt and compensates it, so Slack's
      // retry is a first mark. Any acknowledged event not handled exactly once is a violation.
    });
    expect(violations).toEqual([]);
    expect(figures.exhausted).toBe(0);
    expect(figures.crashClassLost).toBe(0);

    // Every event delivery made wholly inside the outage was refused with Slack's retry signal.
    const inOutage = [...flood.events.values()].flatMap((e) =>
      e.attempts.filter((a) => a.startedAt > stoppedAt && a.endedAt < restartingAt),
    );
    expect(inOutage.length).toBeGreaterThan(0);
    for (const attempt of inOutage) {
      expect(attempt.result).toMatchObject({ kind: 'response', status: 503, noRetry: false });
    }
    // Commands of the outage saw the truthful "unavailable" text, never a fake success.
    const commandsInOutage = [...flood.commands.values()].filter(
      (c) => c.ack?.kind === 'response' && c.ack.body.includes(unavailableText),
    );
    expect(figures.preludeErrors).toBeGreaterThan(0);
    // The same runtime admitted and handled events again once Redis was back.
    const ackedAfter = [...flood.events.values()].filter((e) =>
      e.attempts.some(
        (a) =>
          a.startedAt > restartingAt && a.result.kind === 'response' && a.result.status === 200,
      ),
    );
    expect(ackedAfter.length).toBeGreaterThan(0);
    expect(bed.log.leaks([BED_SECRET, BED_TOKEN])).toEqual([]);

    recordFigures('redis-outage', {
      ...figures,
      outageMs: Math.round(restartingAt - stoppedAt),
      eventDeliveriesInOutage: inOutage.length,
      commandsAnsweredUnavailable: commandsInOutage.length,
      eventsAckedAfterRestart: ackedAfter.length,
    });
  });
});
