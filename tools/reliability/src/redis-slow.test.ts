import { DEFAULT_SLACK_ADAPTER_OPTIONS } from '@rt/adapter-slack';
import type { Observation } from '@rt/core';
import { createRedisState } from '@rt/state-redis';
import { afterEach, describe, expect, it } from 'vitest';
import { pause, until } from './support/deferred.js';
import { recordFigures, sized } from './support/figures.js';
import { HandledLedger } from './support/handled-ledger.js';
import { type PrivateRedisServer, startRedisServer } from './support/redis.js';
import { checkSlackFlood } from './support/slack-accounting.js';
import { BED_SECRET, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { planFlood, SlackFlood } from './support/slack-flood.js';
import { TcpProxy } from './support/tcp-proxy.js';

const TIME_SCALE = 100;
const ACK_DEADLINE_MS = 300;
const { busyText, unavailableText } = DEFAULT_SLACK_ADAPTER_OPTIONS;

const deadlineNotices = (observations: readonly Observation[]) =>
  observations.filter((o) => o.type === 'adapter_notice' && o.name === 'ack_deadline_passed');

describe('Redis answering slowly or not at all, behind a loopback proxy', () => {
  let bed: SlackBed | undefined;
  let server: PrivateRedisServer | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await bed?.close();
    await proxy?.close();
    await server?.dispose();
    bed = proxy = server = undefined;
  });

  async function start(
    commandTimeoutMs: number,
    lockTtlMs: number,
  ): Promise<{ bed: SlackBed; proxy: TcpProxy; handled: HandledLedger; flood: SlackFlood }> {
    server = await startRedisServer();
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: server.port });
    const state = createRedisState({
      url: proxy.url,
      commandTimeoutMs,
      connectTimeoutMs: 250,
      maxReconnectDelayMs: 50,
    });
    bed = await startSlackBed({
      state,
      adapter: { ackDeadlineMs: ACK_DEADLINE_MS, syncDeadlineMs: ACK_DEADLINE_MS - 50 },
      runtime: { maxDetached: 256, concurrency: 'queue', lockTtlMs },
    });
    const handled = new HandledLedger();
    bed.runtime.onMention(handled.slow(5, (event) => event.id));
    const b = bed;
    const flood = new SlackFlood({
      url: b.url,
      secret: BED_SECRET,
      timeScale: TIME_SCALE,
      log: b.log,
      responseUrl: () => b.webApi.responseUrl(),
    });
    return { bed: b, proxy, handled, flood };
  }

  const plan = () =>
    planFlood({
      events: sized(120, 1200),
      commands: 0,
      tenants: ['T1', 'T2'],
      hotShare: 0.5,
      burstSize: 4,
      burstGapMs: 40,
      seed: 11,
    });

  it('answers by the ack deadline while replies are delayed, and handles everything it acknowledged exactly once', async () => {
    const { bed, proxy, handled, flood } = await start(5000, 30_000);
    const run = flood.run(plan());
    await until(() => flood.counters.eventsAcked >= 20);
    proxy.set({ kind: 'delay', ms: 3 * ACK_DEADLINE_MS });
    await until(
      () => proxy.delayedChunks > 0 && deadlineNotices(bed.log.observations).length >= 10,
    );
    proxy.set({ kind: 'pass' });
    await run;
    await until(() => bed.runtime.stats().detachedInFlight === 0);
    await bed.runtime.shutdown({ graceMs: 5000 });

    const atDeadline = deadlineNotices(bed.log.observations).length;
    const { violations, figures } = checkSlackFlood({
      flood,
      handled,
      stats: bed.runtime.stats(),
      observations: bed.log.observations,
      refusalTexts: [busyText, unavailableText],
      answeredAtDeadline: atDeadline,
    });
    expect(violations).toEqual([]);
    expect(proxy.delayedChunks).toBeGreaterThan(0);
    // Slack never waited past its 3 s: every answer was on time, the slow ones at the deadline.
    expect(flood.counters.otherFailures).toBe(0);
    expect(figures.exhausted).toBe(0);
    // Late marks landed: their deliveries were handled, and Slack's retries met them as duplicates.
    expect(bed.runtime.stats().outcomes.duplicate).toBeGreaterThan(0);
    recordFigures('redis-slow', {
      ...figures,
      answeredAtDeadline: atDeadline,
      delayedReplyChunks: proxy.delayedChunks,
      ackDeadlineMs: ACK_DEADLINE_MS,
    });
  });

  it('loses nothing acknowledged when replies are cut, not even a mark whose reply was lost', async () => {
    // Short leases: a lock taken whose reply was lost in the cut blocks its thread until it expires.
    const { bed, proxy, handled, flood } = await start(250, 1000);
    const run = flood.run(plan());
    await until(() => flood.counters.eventsAcked >= 20);
    const cutAt = performance.now();
    proxy.set({ kind: 'partition' });
    await pause(sized(300, 1500));
    const healedAt = performance.now();
    proxy.set({ kind: 'pass' });
    await run;
    await until(() => bed.runtime.stats().detachedInFlight === 0);
    await bed.runtime.shutdown({ graceMs: 5000 });

    const { violations, figures } = checkSlackFlood({
      flood,
      handled,
      stats: bed.runtime.stats(),
      observations: bed.log.observations,
      refusalTexts: [busyText, unavailableText],
    });
    // A mark can land in Redis while its reply is lost in the cut: the delivery is refused (503)
    // and the State keeps the mark in doubt, so Slack's retry is a first mark (on this State, or
    // on any other once the compensator removed the mark): every event is handled exactly once.
    expect(violations).toEqual([]);
    expect(figures.crashClassLost).toBe(0);
    expect(handled.total).toBe(flood.events.size);
    expect(proxy.cutConnections + proxy.refusedConnections).toBeGreaterThan(0);
    expect(figures.preludeErrors).toBeGreaterThan(0);
    recordFigures('redis-cut', {
      ...figures,
      cutMs: Math.round(healedAt - cutAt),

      cutConnections: proxy.cutConnections,
      refusedConnections: proxy.refusedConnections,
    });
  });
});
