import { DetachTimeoutError, type HandlerContext, PreemptedError } from '@rt/core';
import { createRedisState } from '@rt/state-redis';
import { buildAppMentionEvent, createSlackSigner } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred, until } from './support/deferred.js';
import { recordFigures, sized } from './support/figures.js';
import { HandledLedger } from './support/handled-ledger.js';
import { adminClient, type PrivateRedisServer, startRedisServer } from './support/redis.js';
import { BED_SECRET, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { planFlood, SlackFlood } from './support/slack-flood.js';

type Fault = 'ok' | 'throws' | 'hangs' | 'ignores';
const faultOf = (id: string): Fault =>
  (['ok', 'throws', 'hangs', 'ignores'] as const)[Number(id.slice(-1)) % 4] ?? 'ok';

async function post(url: string, eventId: string, threadTs?: string): Promise<number> {
  const payload = buildAppMentionEvent({ eventId, ...(threadTs ? { threadTs } : {}) });
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': payload.contentType,
      ...createSlackSigner(BED_SECRET).sign(payload.body),
    },
    body: payload.body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe('handlers that misbehave under a flood', () => {
  let bed: SlackBed | undefined;
  let server: PrivateRedisServer | undefined;
  afterEach(async () => {
    await bed?.close();
    await server?.dispose();
    bed = server = undefined;
  });

  it("ends throwing, hanging and signal-ignoring handlers with one outcome each, and keeps the ignorers' slots until they settle", async () => {
    const DETACH_MS = 150;
    bed = await startSlackBed({
      runtime: { maxDetached: sized(64, 640), concurrency: 'queue', detachTimeoutMs: DETACH_MS },
    });
    const release = deferred();
    const entered = new HandledLedger();
    const reasons: unknown[] = [];
    const ignorersAborted: unknown[] = [];
    bed.runtime.onMention(async (ctx: HandlerContext) => {
      entered.record(ctx.event.id);
      const fault = faultOf(ctx.event.id);
      if (fault === 'throws') throw new Error(`handler for ${ctx.event.id} broke`);
      if (fault === 'hangs') {
        await new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => {
            reasons.push(ctx.signal.reason);
            reject(ctx.signal.reason);
          }),
        );
      }
      if (fault === 'ignores') {
        ctx.signal.addEventListener('abort', () => ignorersAborted.push(ctx.signal.reason));
        await release.promise;
      }
    });
    const plan = planFlood({
      events: sized(40, 400),
      commands: 0,
      tenants: ['T1', 'T2'],
      hotShare: 0.5,
      burstSize: 8,
      burstGapMs: 20,
      seed: 3,
    });
    const b = bed;
    const flood = new SlackFlood({
      url: b.url,
      secret: BED_SECRET,
      timeScale: 1200,
      log: b.log,
      responseUrl: () => b.webApi.responseUrl(),
    });
    await flood.run(plan);
    const count = (fault: Fault) => plan.filter((item) => faultOf(item.id) === fault).length;
    const outcomes = () => bed!.runtime.stats().outcomes;
    // At the detach timeout every hanging handler ended timed-out; the ignorers were told too
    // (their signals aborted) but have no outcome yet and keep their slots until they settle.
    await until(
      () =>
        outcomes()['timed-out'] === count('hangs') && ignorersAborted.length === count('ignores'),
    );
    expect(outcomes().failed).toBe(count('throws'));
    expect(outcomes().completed).toBe(count('ok'));
    expect(bed.runtime.stats().detachedInFlight).toBe(count('ignores'));
    for (const reason of [...reasons, ...ignorersAborted]) {
      expect(reason).toBeInstanceOf(DetachTimeoutError);
    }
    release.resolve();
    await until(() => bed!.runtime.stats().detachedInFlight === 0);
    expect(outcomes()['timed-out']).toBe(count('hangs') + count('ignores'));
    // Every acknowledged event entered its handler exactly once; no outcome was counted twice.
    for (const item of plan) expect(entered.counts.get(item.id)).toBe(1);
    expect(flood.counters.eventsAcked).toBe(plan.length);
    expect(bed.runtime.stats().accepted).toBe(plan.length);
    const finished = bed.log.observations.filter((o) => o.type === 'dispatch_finished');
    expect(finished.length).toBe(plan.length);
    recordFigures('handler-faults', {
      events: plan.length,
      throws: count('throws'),
      hangs: count('hangs'),
      ignores: count('ignores'),
      outcomes: bed.runtime.stats().outcomes,
    });
  });

  it('aborts the old holder when its lease is deleted or taken over behind it, and fences the next holder higher', async () => {
    server = await startRedisServer();
    const admin = adminClient(server.url);
    try {
      bed = await startSlackBed({
        state: createRedisState({ url: server.url, commandTimeoutMs: 1000 }),
        runtime: { maxDetached: 256, concurrency: 'queue', lockTtlMs: 600 },
      });
      const THREADS = 8;
      const first = new Map<string, { fence: number; reason: Promise<unknown> }>();
      const second = new Map<string, number>();
      const load = new HandledLedger();
      bed.runtime.onMention(async (ctx: HandlerContext) => {
        const thread = ctx.event.thread ?? '';
        if (ctx.event.id.startsWith('EvLOAD')) return load.slow(10, (e) => e.id)(ctx);
        if (ctx.event.id.startsWith('EvFIRST')) {
          const aborted = deferred<unknown>();
          ctx.signal.addEventListener('abort', () => aborted.resolve(ctx.signal.reason), {
            once: true,
          });
          first.set(thread, { fence: ctx.lock?.fence ?? -1, reason: aborted.promise });
          await aborted.promise;
          return;
        }
        second.set(thread, ctx.lock?.fence ?? -1);
      });
      const threads = Array.from({ length: THREADS }, (_, i) => `1750000000.00000${i}`);
      for (const [i, thread] of threads.entries()) {
        expect(await post(bed.url, `EvFIRST${i}`, thread)).toBe(200);
      }
      await until(() => first.size === THREADS);
      // Load on other threads while the leases are taken away.
      const b = bed;
      const flood = new SlackFlood({
        url: b.url,
        secret: BED_SECRET,
        timeScale: 1200,
        responseUrl: () => b.webApi.responseUrl(),
      });
      const loadPlan = planFlood({
        events: sized(100, 1000),
        commands: 0,
        tenants: ['T0TEAM'],
        hotShare: 1,
        burstSize: 10,
        burstGapMs: 10,
        seed: 5,
      }).map((item) => ({ ...item, id: `EvLOAD${item.id}` }));
      const loading = flood.run(loadPlan);
      const lockKeys = (await admin.keys('*:lock')).filter((key) =>
        threads.some((t) => key.includes(t)),
      );
      expect(lockKeys).toHaveLength(THREADS);
      for (const [i, key] of lockKeys.entries()) {
        // Half the leases vanish; the other half expired and were taken by another holder (a
        // foreign token). A bare PEXPIRE would race the holder's own renewal, which may keep it.
        if (i % 2 === 0) await admin.del(key);
        else await admin.set(key, `foreign-holder-${i}`, 'PX', 600);
      }
      for (const { reason } of first.values()) expect(await reason).toBeInstanceOf(PreemptedError);
      for (const [i, thread] of threads.entries()) {
        expect(await post(bed.url, `EvSECOND${i}`, thread)).toBe(200);
      }
      await until(() => second.size === THREADS);
      for (const thread of threads) {
        expect(second.get(thread)!).toBeGreaterThan(first.get(thread)!.fence);
      }
      await loading;
      await until(() => bed!.runtime.stats().detachedInFlight === 0);
      expect(bed.runtime.stats().outcomes.preempted).toBe(THREADS);
      expect(bed.log.observations.filter((o) => o.type === 'lease_lost')).toHaveLength(THREADS);
      for (const item of loadPlan) expect(load.counts.get(item.id)).toBe(1);
      recordFigures('lease-loss', {
        threads: THREADS,
        deleted: THREADS / 2,
        takenOver: THREADS / 2,
        loadEvents: loadPlan.length,
        preempted: THREADS,
      });
    } finally {
      admin.disconnect();
    }
  });
});
