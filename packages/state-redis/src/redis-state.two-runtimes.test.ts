import { randomUUID } from 'node:crypto';
import {
  type ConcurrencyOptions,
  type CreateRuntimeOptions,
  createRuntime,
  type DispatchResult,
  type Observation,
  type Runtime,
  type StrategyName,
} from '@rt/core';
import { createTestAdapter, type TestAdapter } from '@rt/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisState, type RedisState } from './redis-state.js';
import { adminClient, sleep, subscriberCount, until } from './test-support/redis-admin.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

type Accepted = Extract<DispatchResult, { status: 'accepted' }>;

/** A promise with its resolver, to hold a handler until the test lets it go. */
function gate(): { readonly promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function accepted(result: DispatchResult): Accepted {
  if (result.status !== 'accepted') throw new Error(`expected accepted, got ${result.status}`);
  return result;
}

// Two runtimes, each with its own RedisState and connection (one from a URL, one from a caller's
// client), on one private Redis: what two instances of a bot behind a load balancer share.
describe('two runtimes, each with its own RedisState, on one Redis', () => {
  let server: PrivateRedisServer;
  let admin: Redis;
  let prefix: string;
  const runtimes: Runtime[] = [];
  const states: RedisState[] = [];
  const clients: Redis[] = [];

  interface Instance {
    readonly runtime: Runtime;
    readonly adapter: TestAdapter;
    readonly observations: Observation[];
  }

  /** Instance `a` uses a URL, instance `b` a caller-owned client. */
  const instance = (which: 'a' | 'b', options: Partial<CreateRuntimeOptions> = {}): Instance => {
    let state: RedisState;
    if (which === 'a') {
      state = createRedisState({ url: server.url, prefix });
    } else {
      const client = new Redis(server.url);
      clients.push(client);
      state = createRedisState({ client, prefix });
    }
    const adapter = createTestAdapter();
    const observations: Observation[] = [];
    const runtime = createRuntime({
      ...options,
      state,
      adapters: [adapter],
      observers: [(observation) => void observations.push(observation)],
    });
    states.push(state);
    runtimes.push(runtime);
    return { runtime, adapter, observations };
  };

  beforeAll(async () => {
    server = await startRedisServer();
    admin = adminClient(server.url);
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown({ graceMs: 100 })));
    await Promise.all(states.splice(0).map((state) => state.close()));
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.dispose();
  });

  describe.each<StrategyName>(['drop', 'queue'])('with %s', (strategy) => {
    const concurrency: ConcurrencyOptions = { strategy, lockPollInitialMs: 10, lockPollMaxMs: 50 };

    it('never runs two handlers of one scope at once, across instances', async () => {
      prefix = `rt-two-${randomUUID().slice(0, 8)}:`;
      const a = instance('a', { concurrency });
      const b = instance('b', { concurrency });
      let running = 0;
      let maxRunning = 0;
      const fences: number[] = [];
      for (const { runtime } of [a, b]) {
        runtime.onMessage(async (ctx) => {
          running += 1;
          maxRunning = Math.max(maxRunning, running);
          fences.push(ctx.lock!.fence);
          await sleep(10);
          running -= 1;
        });
      }

      // Rounds of one delivery per instance at once, for one scope: they contend for its lock.
      const results: Accepted[] = [];
      for (let round = 0; round < 15; round += 1) {
        const pair = await Promise.all([
          a.adapter.send({ id: `a-${round}`, thread: 'shared' }),
          b.adapter.send({ id: `b-${round}`, thread: 'shared' }),
        ]);
        results.push(...pair.map(accepted));
        await sleep(3);
      }
      const outcomes = await Promise.all(results.map(async (r) => (await r.settled).outcome));

      expect(maxRunning).toBe(1);
      expect(fences.length).toBeGreaterThan(1);
      for (let index = 1; index < fences.length; index += 1) {
        expect(fences[index]).toBeGreaterThan(fences[index - 1]!);
      }
      if (strategy === 'drop') {
        // The first round's pair tried the free lock at once: one of them lost.
        expect(new Set(outcomes)).toEqual(new Set(['completed', 'dropped']));
      } else {
        for (const outcome of outcomes) expect(['completed', 'superseded']).toContain(outcome);
      }
    });

    it('keeps the other instance out while one holds the scope', async () => {
      prefix = `rt-two-${randomUUID().slice(0, 8)}:`;
      const a = instance('a', { concurrency });
      const b = instance('b', { concurrency });
      const held = gate();
      const log: string[] = [];
      a.runtime.onMessage(async (ctx) => {
        log.push(`start ${ctx.event.id}`);
        await held.promise;
        log.push(`end ${ctx.event.id}`);
      });
      b.runtime.onMessage((ctx) => void log.push(`run ${ctx.event.id}`));

      const first = accepted(await a.adapter.send({ id: 'on-a', thread: 'busy' }));
      await until(() => log.includes('start on-a'));
      const second = accepted(await b.adapter.send({ id: 'on-b', thread: 'busy' }));
      if (strategy === 'drop') {
        expect((await second.settled).outcome).toBe('dropped');
        expect(b.observations.some((o) => o.type === 'lock_conflict')).toBe(true);
      } else {
        // B parks and waits on the lock: it has subscribed to release announcements.
        await until(async () => (await subscriberCount(admin, `${prefix}lock-released`)) > 0);
        expect(b.runtime.stats().parked).toBe(1);
      }
      expect(log).toEqual(['start on-a']);
      held.open();
      expect((await first.settled).outcome).toBe('completed');
      if (strategy === 'queue') expect((await second.settled).outcome).toBe('completed');
      expect(log).toEqual(
        strategy === 'drop' ? ['start on-a', 'end on-a'] : ['start on-a', 'end on-a', 'run on-b'],
      );
    });
  });

  it("runs a queue waiter on one instance once the other's holder releases, woken by pub/sub, with what it superseded on its own instance", async () => {
    prefix = `rt-two-${randomUUID().slice(0, 8)}:`;
    // Polling so slow that only the release announcement can wake the waiter within the test.
    const concurrency: ConcurrencyOptions = {
      strategy: 'queue',
      lockPollInitialMs: 60_000,
      lockPollMaxMs: 60_000,
    };
    const a = instance('a', { concurrency });
    const b = instance('b', { concurrency });
    const held = gate();
    const log: string[] = [];
    const skipped = new Map<string, string[]>();
    for (const { runtime } of [a, b]) {
      runtime.onMessage(async (ctx) => {
        log.push(`start ${ctx.event.id}`);
        skipped.set(
          ctx.event.id,
          ctx.skipped.map((event) => event.id),
        );
        if (ctx.event.id === 'a1') await held.promise;
        log.push(`end ${ctx.event.id}`);
      });
    }

    const a1 = accepted(await a.adapter.send({ id: 'a1', thread: 'line' }));
    await until(() => log.includes('start a1'));
    const b1 = accepted(await b.adapter.send({ id: 'b1', thread: 'line' }));
    const b2 = accepted(await b.adapter.send({ id: 'b2', thread: 'line' }));
    expect((await b1.settled).outcome).toBe('superseded');
    await until(async () => (await subscriberCount(admin, `${prefix}lock-released`)) > 0);
    // A second delivery on A parks on A: it does not supersede B's waiter (per instance).
    const a2 = accepted(await a.adapter.send({ id: 'a2', thread: 'line' }));
    expect(a.runtime.stats().parked).toBe(1);
    expect(b.runtime.stats().parked).toBe(1);
    expect(log).toEqual(['start a1']);

    held.open();
    const outcomes = await Promise.all([a1, b2, a2].map(async (r) => (await r.settled).outcome));
    expect(outcomes).toEqual(['completed', 'completed', 'completed']);
    expect(log.slice(0, 2)).toEqual(['start a1', 'end a1']);
    // The two waiters then ran one after the other, in whichever order they won the lock.
    const rest = log.slice(2);
    expect(rest).toHaveLength(4);
    expect(rest[0]!.replace('start', 'end')).toBe(rest[1]);
    expect(rest[2]!.replace('start', 'end')).toBe(rest[3]);
    expect(skipped.get('a1')).toEqual([]);
    expect(skipped.get('b2')).toEqual(['b1']);
    expect(skipped.get('a2')).toEqual([]);
  });
});
