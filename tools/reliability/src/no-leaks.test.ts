import { getEventListeners } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import { createRedisState } from '@rt/state-redis';
import { buildAppMentionEvent, createSlackSigner } from '@rt/testing/slack';
import { describe, expect, it } from 'vitest';
import { pause, until } from './support/deferred.js';
import { EmissionLog } from './support/emission-log.js';
import { recordFigures } from './support/figures.js';
import { startRedisServer } from './support/redis.js';
import { BED_SECRET, BED_TOKEN, startSlackBed } from './support/slack-bed.js';
import { planFlood, SlackFlood } from './support/slack-flood.js';

/** `process.getActiveResourcesInfo()` as counts per resource type. */
function resources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo())
    counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/** Resources alive now that were not alive at `baseline` (type: how many more). */
function grownSince(baseline: Map<string, number>): Record<string, number> {
  const grown: Record<string, number> = {};
  for (const [type, count] of resources()) {
    const more = count - (baseline.get(type) ?? 0);
    if (more > 0) grown[type] = more;
  }
  return grown;
}

describe('after a full run', () => {
  it('leaves no open handle, no unhandled rejection and no listener on reused signals', async () => {
    const baseline = resources();
    const emitted = new EmissionLog();
    emitted.captureConsole();
    const server = await startRedisServer();
    const reused = new AbortController().signal;
    const bed = await startSlackBed({
      state: createRedisState({ url: server.url }),
      runtime: {
        maxDetached: 8,
        concurrency: 'queue',
        lockTtlMs: 3000,
        detachTimeoutMs: 200,
        // A logging observer, as an operator would run: everything it prints is scanned too.
        observers: [
          (o) =>
            console.info(
              JSON.stringify(o, (_, v) =>
                v instanceof Error ? { message: v.message, stack: v.stack } : v,
              ),
            ),
        ],
      },
    });
    let calls = 0;
    bed.runtime.onMention(async (ctx) => {
      // Every handler reuses one long-lived signal for its outbound call and its wait.
      await bed.adapter.reply(ctx.event, 'on it', { signal: reused });
      calls += 1;
      await pause(5, reused);
      if (ctx.event.id.endsWith('3')) throw new Error('a handler that throws');
      // Waits for its detach timeout; under load the signal may already have fired while the
      // handler was still in its reply or pause, and a listener added then would never run.
      if (ctx.event.id.endsWith('7') && !ctx.signal.aborted)
        await new Promise((resolve) =>
          ctx.signal.addEventListener('abort', resolve, { once: true }),
        );
    });
    const flood = new SlackFlood({
      url: bed.url,
      secret: BED_SECRET,
      timeScale: 1200,
      log: bed.log,
      responseUrl: () => bed.webApi.responseUrl(),
    });
    await flood.run(
      planFlood({
        events: 60,
        commands: 10,
        tenants: ['T1', 'T2'],
        hotShare: 0.5,
        burstSize: 16,
        burstGapMs: 350,
        seed: 1,
        threads: 3,
      }),
    );
    // Hostile requests too: unsigned, stale, oversized.
    const payload = buildAppMentionEvent();
    for (const headers of [{}, createSlackSigner(BED_SECRET).sign(payload.body, 1)]) {
      const response = await fetch(bed.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload.body,
      });
      await response.arrayBuffer();
      expect(response.status).toBe(401);
    }
    const big = await fetch(bed.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...createSlackSigner(BED_SECRET).sign('x'),
      },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    await big.arrayBuffer();
    expect(big.status).toBe(413);
    for (let i = 0; i < 5; i += 1) await bed.adapter.drainFollowUps(reused);
    await until(() => bed.runtime.stats().detachedInFlight === 0);
    await bed.runtime.shutdown({ graceMs: 100 });
    await bed.close();
    await server.dispose();
    // Sockets closed by the server side finish closing on the client side within a turn or two.
    // Sockets the server side closed finish closing on the client side within a few turns; the
    // check runs from an immediate, never from inside a timer callback (which counts as active).
    for (let turn = 0; turn < 50 && Object.keys(grownSince(baseline)).length > 0; turn += 1) {
      await pause(10);
      await setImmediate();
      await setImmediate();
    }

    expect(calls).toBeGreaterThan(0);
    expect(grownSince(baseline)).toEqual({});
    expect(getEventListeners(reused, 'abort')).toHaveLength(0);
    emitted.stopConsoleCapture();
    expect(emitted.size).toBeGreaterThan(0);
    expect(emitted.leaks([BED_SECRET, BED_TOKEN])).toEqual([]);
    expect(bed.log.leaks([BED_SECRET, BED_TOKEN])).toEqual([]);
    recordFigures('no-leaks', {
      handlersCalled: calls,
      resourcesAtEnd: process.getActiveResourcesInfo().length,
      outcomes: bed.runtime.stats().outcomes,
    });
  });
});
