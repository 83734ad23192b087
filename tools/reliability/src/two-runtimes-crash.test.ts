import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HandlerContext } from '@rt/core';
import { createRedisState } from '@rt/state-redis';
import { afterEach, describe, expect, it } from 'vitest';
import { pause, until } from './support/deferred.js';
import { recordFigures, sized } from './support/figures.js';
import { type PrivateRedisServer, startRedisServer } from './support/redis.js';
import { BED_SECRET, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { type FloodItem, planFlood, SlackFlood } from './support/slack-flood.js';

const LOCK_TTL_MS = 1000;
const HANDLER_MS = 40;
/**
 * The dead instance's handlers run longer, so those in flight when the test decides to kill it
 * are still running when SIGKILL lands even on a loaded machine (with 40 ms they could all finish
 * in between, leaving the instance holding no lease and the takeover nothing to show).
 */
const CHILD_HANDLER_MS = 400;
const CHILD = fileURLToPath(new URL('./support/child-instance.ts', import.meta.url));

/** What the child process reported before it died. */
interface ChildLog {
  port: number;
  readonly started: Map<string, { lockKey: string; fence: number }>;
  readonly done: Set<string>;
}

function spawnChild(redisUrl: string): {
  child: ChildProcess;
  log: ChildLog;
  ready: Promise<void>;
} {
  const child = spawn(process.execPath, ['--conditions=@rt/source', '--import', 'tsx', CHILD], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: {
      ...process.env,
      RT_REDIS_URL: redisUrl,
      RT_LOCK_TTL_MS: String(LOCK_TTL_MS),
      RT_HANDLER_MS: String(CHILD_HANDLER_MS),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const log: ChildLog = { port: 0, started: new Map(), done: new Set() };
  let buffered = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before it was ready`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [kind, id, lockKey, fence] = line.split(' ');
        if (kind === 'ready') {
          log.port = Number(id);
          resolve();
        } else if (kind === 'start' && id)
          log.started.set(id, { lockKey: lockKey ?? '', fence: Number(fence) });
        else if (kind === 'done' && id) log.done.add(id);
      }
    });
  });
  return { child, log, ready };
}

describe('two runtimes on one Redis, one killed with SIGKILL mid-flood', () => {
  let bed: SlackBed | undefined;
  let server: PrivateRedisServer | undefined;
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await bed?.close();
    await server?.dispose();
    bed = server = child = undefined;
  });

  it('lets the survivor take over the dead instance threads once its leases expire, losing only the counted crash class', async () => {
    server = await startRedisServer();
    const spawned = spawnChild(server.url);
    child = spawned.child;
    const exited = new Promise<void>((resolve) => spawned.child.once('exit', () => resolve()));
    await spawned.ready;
    const childUrl = `http://127.0.0.1:${spawned.log.port}/slack/events`;

    bed = await startSlackBed({
      state: createRedisState({ url: server.url, commandTimeoutMs: 1000 }),
      runtime: { maxDetached: 256, concurrency: 'queue', lockTtlMs: LOCK_TTL_MS },
    });
    const survivor = new Map<
      string,
      { lockKey: string; fence: number; count: number; at: number }
    >();
    bed.runtime.onMention(async (ctx: HandlerContext) => {
      const seen = survivor.get(ctx.event.id);
      survivor.set(ctx.event.id, {
        lockKey: ctx.lock?.key ?? '',
        fence: ctx.lock?.fence ?? -1,
        count: (seen?.count ?? 0) + 1,
        at: performance.now(),
      });
      for (const skipped of ctx.skipped) {
        const s = survivor.get(skipped.id);
        survivor.set(skipped.id, {
          lockKey: ctx.lock?.key ?? '',
          fence: ctx.lock?.fence ?? -1,
          count: (s?.count ?? 0) + 1,
          at: performance.now(),
        });
      }
      await pause(HANDLER_MS, ctx.signal);
    });

    let killedAt = Number.POSITIVE_INFINITY;
    const dead = () => performance.now() >= killedAt;
    const b = bed;
    const flood = new SlackFlood({
      url: b.url,
      // A load balancer: even items go to the child, odd ones to the survivor; once the child is
      // dead, Slack's retries reach the survivor.
      urlFor: (item: FloodItem) =>
        Number(item.id.slice(2)) % 2 === 0 && !dead() ? childUrl : b.url,
      secret: BED_SECRET,
      timeScale: 100,
      log: b.log,
      responseUrl: () => b.webApi.responseUrl(),
    });
    const plan = planFlood({
      events: sized(160, 1600),
      commands: 0,
      tenants: ['T1', 'T2'],
      hotShare: 0.5,
      burstSize: 4,
      burstGapMs: 25,
      seed: 9,
      threads: 4,
    });
    const run = flood.run(plan);
    const inFlightInChild = () =>
      [...spawned.log.started.keys()].filter((id) => !spawned.log.done.has(id));
    await until(() => spawned.log.done.size >= 10 && inFlightInChild().length > 0);
    spawned.child.kill('SIGKILL');
    killedAt = performance.now();
    await exited;
    const heldAtKill = inFlightInChild().map((id) => spawned.log.started.get(id)!);
    await run;
    await until(() => b.runtime.stats().detachedInFlight === 0);

    // Nobody handled an event twice; each finished event was handled exactly once, by one of them.
    const lost: string[] = [];
    for (const entry of flood.events.values()) {
      const id = entry.item.id;
      const byChild = spawned.log.done.has(id) ? 1 : 0;
      const bySurvivor = survivor.get(id)?.count ?? 0;
      expect(byChild + bySurvivor).toBeLessThanOrEqual(1);
      expect(entry.status).toBe('acked');
      if (byChild + bySurvivor === 1) continue;
      // The crash class: the dead instance had this event (its ack, mark or handler) when it died.
      const touchedChild = entry.attempts.some(
        (a) => a.url === childUrl && a.startedAt <= killedAt,
      );
      expect(touchedChild).toBe(true);
      lost.push(id);
    }
    // One more event on each thread the dead instance held a lease on, sent to the survivor: it
    // waits for that lease to expire, then runs under a higher fence.
    const takeover = new SlackFlood({
      url: b.url,
      secret: BED_SECRET,
      timeScale: 100,
      responseUrl: () => b.webApi.responseUrl(),
    });
    await takeover.run(
      heldAtKill.map((held, i) => {
        const [, tenant, , thread] = held.lockKey.split(':');
        return {
          kind: 'event' as const,
          id: `EvTAKE${i}`,
          tenant: tenant ?? '',
          atMs: 0,
          thread: thread ?? '',
        };
      }),
    );
    await until(() => heldAtKill.every((_, i) => survivor.has(`EvTAKE${i}`)));
    // The survivor took over the threads whose leases the dead instance held: higher fences.
    let takenOver = 0;
    for (const held of heldAtKill) {
      const later = [...survivor.values()].filter(
        (s) => s.lockKey === held.lockKey && s.at > killedAt,
      );
      for (const s of later) expect(s.fence).toBeGreaterThan(held.fence);
      if (later.length > 0) takenOver += 1;
    }
    expect(takenOver).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThanOrEqual(heldAtKill.length);
    recordFigures('two-runtimes-sigkill', {
      events: plan.length,
      handledByChild: spawned.log.done.size,
      handledBySurvivor: [...survivor.values()].reduce((sum, s) => sum + s.count, 0),
      heldByChildAtKill: heldAtKill.length,
      threadsTakenOver: takenOver,
      crashClassLost: lost.length,
      lockTtlMs: LOCK_TTL_MS,
    });
  });
});
