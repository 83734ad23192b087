import { randomUUID } from 'node:crypto';
import {
  createRuntime,
  type DispatchResult,
  hasErrorCode,
  PreludeError,
  type Runtime,
  StateUnavailableError,
} from '@rt/core';
import { createTestAdapter, type TestAdapter } from '@rt/testing';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATE_CONNECTION_NAME } from './own-client.js';
import { createRedisState, type RedisState } from './redis-state.js';
import {
  adminClient,
  blockedClients,
  pauseWrites,
  sleep,
  until,
} from './test-support/redis-admin.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

describe('runtimes on a shared Redis state', () => {
  let server: PrivateRedisServer;
  let prefix: string;
  const states: RedisState[] = [];
  const runtimes: Runtime[] = [];
  const clients: Redis[] = [];

  const instance = (
    options: Partial<Parameters<typeof createRuntime>[0]> = {},
    stateOptions: Partial<Parameters<typeof createRedisState>[0]> = {},
  ): { runtime: Runtime; adapter: TestAdapter; state: RedisState } => {
    const state = createRedisState({ url: server.url, prefix, ...stateOptions } as never);
    const adapter = createTestAdapter();
    const runtime = createRuntime({ ...options, state, adapters: [adapter] });
    states.push(state);
    runtimes.push(runtime);
    return { runtime, adapter, state };
  };

  beforeEach(async () => {
    server = await startRedisServer();
    prefix = `rt-it-${randomUUID().slice(0, 8)}:`;
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown({ graceMs: 100 })));
    await Promise.all(states.splice(0).map((state) => state.close()));
    for (const client of clients.splice(0)) client.disconnect();
    await server.dispose();
  });

  it('accepts one event dispatched to both runtimes exactly once', async () => {
    const handled: string[] = [];
    const a = instance();
    const b = instance();
    for (const { runtime } of [a, b]) runtime.onMessage((ctx) => void handled.push(ctx.event.id));

    for (let round = 0; round < 10; round += 1) {
      const id = `shared-${round}`;
      const results = await Promise.all([a.adapter.send({ id }), b.adapter.send({ id })]);
      expect(results.map((result) => result.status).sort()).toEqual(['accepted', 'duplicate']);
    }
    await Promise.all([a.adapter.settled(), b.adapter.settled()]);
    expect(handled.sort()).toEqual(
      Array.from({ length: 10 }, (_, round) => `shared-${round}`).sort(),
    );
  });

  it('ends a running handler as preempted when its lease is deleted under it', async () => {
    const admin = new Redis(server.url);
    clients.push(admin);
    const { runtime, adapter } = instance({ lockTtlMs: 600, concurrency: 'drop' });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let abortReason: unknown;
    runtime.onMessage(async (ctx) => {
      started();
      await new Promise<void>((resolve) => {
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      abortReason = ctx.signal.reason;
    });

    const result = await adapter.send({ thread: 'preempt-me' });
    expect(result.status).toBe('accepted');
    await running;
    const lockKeys = await admin.keys(`${prefix}*:lock`);
    expect(lockKeys).toHaveLength(1);
    expect(await admin.del(lockKeys[0]!)).toBe(1);

    const finished = await (result as Extract<DispatchResult, { status: 'accepted' }>).settled;
    expect(finished.outcome).toBe('preempted');
    expect(hasErrorCode(abortReason, 'RT_PREEMPTED')).toBe(true);
  });

  it.each(['concurrent', 'drop', 'queue', 'burst'] as const)(
    'lets no delivery in flight when Redis stops be acknowledged and lost (%s)',
    async (strategy) => {
      const admin = adminClient(server.url);
      clients.push(admin);
      const handled = new Set<string>();
      const { runtime, adapter } = instance(
        { concurrency: { strategy, burstWindowMs: 20, lockPollInitialMs: 20, lockPollMaxMs: 100 } },
        { maxReconnectDelayMs: 50 },
      );
      runtime.onMessage(async (ctx) => {
        await sleep(20);
        for (const event of ctx.batch) handled.add(event.id);
      });

      type Fate =
        | { id: string; kind: 'accepted'; settled: Promise<{ outcome: string }> }
        | { id: string; kind: 'rejected'; error: unknown };
      const fates: Fate[] = [];
      const sending = new Set<string>();
      const tails = new Set<string>();
      let phase: 'up' | 'down' | 'restarted' = 'up';
      let running = true;
      let rejectedWhileDown = 0;
      let acceptedAfterRestart = 0;
      let sequence = 0;
      const senders = Array.from({ length: 6 }, async () => {
        while (running) {
          sequence += 1;
          const id = `fault-${sequence}`;
          sending.add(id);
          try {
            const result = await adapter.send({ id });
            if (result.status !== 'accepted') throw new Error(`unexpected status ${result.status}`);
            fates.push({ id, kind: 'accepted', settled: result.settled });
            tails.add(id);
            void result.settled.finally(() => tails.delete(id));
            if (phase === 'restarted') acceptedAfterRestart += 1;
          } catch (error) {
            fates.push({ id, kind: 'rejected', error });
            if (phase === 'down') rejectedWhileDown += 1;
            await sleep(5);
          } finally {
            sending.delete(id);
          }
        }
      });

      await until(() => fates.length >= 30 && tails.size > 0);
      // Hold every write back, so deliveries are provably mid-prelude (and, with a lock, mid-tail:
      // a tail releases its lock with a write) when the server dies.
      await pauseWrites(admin);
      await until(async () => (await blockedClients(admin, STATE_CONNECTION_NAME)).length > 0);
      await until(() => sending.size > 0);
      const inFlightAtStop = [...sending];
      const tailsAtStop = [...tails];
      phase = 'down';
      await server.stop();
      await until(() => rejectedWhileDown >= 6);
      await server.restart();
      phase = 'restarted';
      await until(() => acceptedAfterRestart >= 6);
      running = false;
      await Promise.all(senders);
      await adapter.settled();

      expect(inFlightAtStop.length).toBeGreaterThan(0);
      if (strategy !== 'concurrent') expect(tailsAtStop.length).toBeGreaterThan(0);
      const accepted = fates.filter((fate) => fate.kind === 'accepted');
      const rejected = fates.filter((fate) => fate.kind === 'rejected');
      expect(accepted.length).toBeGreaterThan(0);
      expect(rejected.length).toBeGreaterThan(0);
      for (const id of inFlightAtStop)
        expect(
          fates.some((fate) => fate.id === id),
          id,
        ).toBe(true);
      for (const fate of accepted) {
        expect((await fate.settled).outcome, fate.id).toBe('completed');
        expect(handled.has(fate.id), fate.id).toBe(true);
      }
      for (const fate of rejected) {
        expect(fate.error, fate.id).toBeInstanceOf(PreludeError);
        expect((fate.error as PreludeError).cause, fate.id).toBeInstanceOf(StateUnavailableError);
        expect(handled.has(fate.id), fate.id).toBe(false);
      }
      expect(runtime.stats().accepted).toBe(accepted.length);
    },
  );
});
