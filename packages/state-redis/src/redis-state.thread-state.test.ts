import { randomUUID } from 'node:crypto';
import { createRuntime, type Runtime, StaleFenceError } from '@rt/core';
import { createTestAdapter, type TestAdapter } from '@rt/testing';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyLayout } from './key-layout.js';
import { createRedisState, type RedisState } from './redis-state.js';
import { adminClient, until } from './test-support/redis-admin.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

/** A promise with its resolver, to hold a handler until the test lets it go. */
function gate(): { readonly promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

// Two instances of a bot on one Redis: the first handler's lease is lost (its lock key deleted, as
// when it expired during a GC pause), a successor takes the lock and writes the thread's state,
// then the first writes late. The State, not the runtime, must refuse that late write: the first
// handler has not noticed its loss yet (its renewal is far away).
describe('thread state across two runtimes on one Redis, at lease loss', () => {
  let server: PrivateRedisServer;
  let admin: Redis;
  let prefix: string;
  const runtimes: Runtime[] = [];
  const states: RedisState[] = [];

  function instance(): { runtime: Runtime; adapter: TestAdapter; state: RedisState } {
    const state = createRedisState({ url: server.url, prefix });
    const adapter = createTestAdapter();
    // A long lease: renewal (every lockTtlMs / 3) never runs during the test, so the first handler
    // keeps believing it holds the lock.
    const runtime = createRuntime({ state, adapters: [adapter], lockTtlMs: 60_000 });
    states.push(state);
    runtimes.push(runtime);
    return { runtime, adapter, state };
  }

  beforeAll(async () => {
    server = await startRedisServer();
    admin = adminClient(server.url);
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown({ graceMs: 100 })));
    await Promise.all(states.splice(0).map((state) => state.close()));
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.dispose();
  });

  it.each(['set', 'update'] as const)(
    'refuses the late %s of the handler that lost its lease, and the successor value stays',
    async (late) => {
      prefix = `rt-ts-${randomUUID().slice(0, 8)}:`;
      const first = instance();
      const second = instance();
      const held = gate();
      const firstWrote = gate();
      const fences: number[] = [];
      let lateError: unknown;
      let threadKey: string | undefined;

      first.runtime.onMessage(async (ctx) => {
        threadKey = ctx.thread.key;
        fences.push(ctx.lock!.fence);
        await ctx.thread.state.set({ by: 'first', step: 1 });
        firstWrote.open();
        await held.promise;
        try {
          if (late === 'set') await ctx.thread.state.set({ by: 'first', step: 2 });
          else await ctx.thread.state.update(() => ({ by: 'first', step: 2 }));
        } catch (error) {
          lateError = error;
        }
      });
      second.runtime.onMessage(async (ctx) => {
        fences.push(ctx.lock!.fence);
        await ctx.thread.state.update<{ step: number }>((current) => ({
          by: 'second',
          step: (current?.step ?? 0) + 10,
        }));
      });

      const firstResult = await first.adapter.send({ id: 'E1', channel: 'C1', thread: '1.1' });
      await firstWrote.promise;
      // The lease is lost: its key is gone, the fence key stays.
      const lockKey = keyLayout(prefix).lockKey(threadKey as string);
      expect(await admin.del(lockKey)).toBe(1);

      const secondResult = await second.adapter.send({ id: 'E2', channel: 'C1', thread: '1.1' });
      if (secondResult.status !== 'accepted') throw new Error(secondResult.status);
      expect((await secondResult.settled).outcome).toBe('completed');

      held.open();
      if (firstResult.status !== 'accepted') throw new Error(firstResult.status);
      await firstResult.settled;

      expect(fences[1]).toBeGreaterThan(fences[0] as number);
      expect(lateError).toBeInstanceOf(StaleFenceError);
      expect(lateError).toMatchObject({ fence: fences[0], storedFence: fences[1] });
      const record = await second.state.readThreadState(threadKey as string);
      expect(JSON.parse(record!.value)).toEqual({ by: 'second', step: 11 });
      expect(record!.fence).toBe(fences[1]);
      await until(async () => (await admin.exists(lockKey)) === 0);
    },
  );
});
