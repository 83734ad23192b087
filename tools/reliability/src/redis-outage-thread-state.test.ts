import { createRuntime, hasErrorCode, type Runtime, StateUnavailableError } from '@rt/core';
import { createRedisState, type RedisState } from '@rt/state-redis';
import { createTestAdapter, type TestAdapter } from '@rt/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './support/deferred.js';
import { type PrivateRedisServer, startRedisServer } from './support/redis.js';
import { TcpProxy } from './support/tcp-proxy.js';

/** A promise with its resolver, to hold a handler until the test lets it go. */
function gate(): { readonly promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const THREAD = { channel: 'C1', thread: '42.1' } as const;

// A handler writes its thread's state while Redis becomes unreachable (a partition cuts the State's
// connection and refuses new ones) or stops answering (replies held past the command budget). It
// must get a typed error, and the thread must keep a whole value: the previous one when the write
// never reached Redis; when only the reply was lost the write is in doubt, but never half applied.
describe('Redis outage in the middle of a thread state write', () => {
  let server: PrivateRedisServer | undefined;
  let proxy: TcpProxy | undefined;
  let runtime: Runtime | undefined;
  let state: RedisState | undefined;
  afterEach(async () => {
    await runtime?.shutdown({ graceMs: 100 });
    await state?.close();
    await proxy?.close();
    await server?.dispose();
    runtime = state = proxy = server = undefined;
  });

  async function start(): Promise<{ adapter: TestAdapter; runtime: Runtime; state: RedisState }> {
    server = await startRedisServer();
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: server.port });
    state = createRedisState({
      url: proxy.url,
      commandTimeoutMs: 200,
      connectTimeoutMs: 200,
      maxReconnectDelayMs: 50,
    });
    const adapter = createTestAdapter();
    // Renewal every 700 ms: none falls in the short outage, so the handler keeps its lock. Its
    // release fails during the outage, so the next delivery of the thread waits for the lapse.
    runtime = createRuntime({ state, adapters: [adapter], lockTtlMs: 2_100 });
    return { adapter, runtime, state };
  }

  async function handle(adapter: TestAdapter, id: string): Promise<string> {
    const result = await adapter.send({ id, ...THREAD });
    if (result.status !== 'accepted') throw new Error(`expected accepted, got ${result.status}`);
    return (await result.settled).outcome;
  }

  it.each([
    ['the connection is cut before the write', 'partition'],
    ['the reply never comes back', 'delay'],
  ] as const)(
    'rejects with StateUnavailableError when %s, and the thread keeps a whole value',
    async (_, fault) => {
      const { adapter, runtime, state } = await start();
      const inWrite = gate();
      const resume = gate();
      let writeError: unknown;
      let threadKey: string | undefined;
      runtime.onMessage(async (ctx) => {
        threadKey = ctx.thread.key;
        if (ctx.event.id === 'first') {
          await ctx.thread.state.set({ summary: 'old', turns: 1 });
          return;
        }
        if (ctx.event.id === 'during') {
          inWrite.open();
          await resume.promise;
          try {
            await ctx.thread.state.set({ summary: 'new', turns: 2 });
          } catch (error) {
            writeError = error;
          }
          return;
        }
        await ctx.thread.state.update<{ turns: number }>((current) => ({
          summary: 'after',
          turns: (current?.turns ?? 0) + 10,
        }));
      });

      expect(await handle(adapter, 'first')).toBe('completed');
      const during = adapter.send({ id: 'during', ...THREAD });
      await inWrite.promise;
      proxy!.set(fault === 'partition' ? { kind: 'partition' } : { kind: 'delay', ms: 1_000 });
      resume.open();
      const result = await during;
      if (result.status !== 'accepted') throw new Error(result.status);
      await result.settled;

      expect(writeError).toBeInstanceOf(StateUnavailableError);
      expect(hasErrorCode(writeError, 'RT_STATE_UNAVAILABLE')).toBe(true);
      if (fault === 'partition') expect(proxy!.cutConnections).toBeGreaterThan(0);
      else expect(proxy!.delayedChunks).toBeGreaterThan(0);

      proxy!.set({ kind: 'pass' });
      let record: Awaited<ReturnType<RedisState['readThreadState']>> = null;
      await until(async () => {
        try {
          record = await state.readThreadState(threadKey as string);
          return true;
        } catch {
          return false;
        }
      });
      const value = JSON.parse(record!.value) as { summary: string };
      if (fault === 'partition') {
        // The write never reached Redis: the previous value, untouched.
        expect(value).toEqual({ summary: 'old', turns: 1 });
        expect(record!.version).toBe(1);
      } else {
        // Only the reply was lost: the write is in doubt, but the value is one whole write.
        expect([
          { summary: 'old', turns: 1 },
          { summary: 'new', turns: 2 },
        ]).toContainEqual(value);
      }
      // The same runtime writes again once Redis answers, without a restart.
      expect(await handle(adapter, 'after')).toBe('completed');
      const after = await state.readThreadState(threadKey as string);
      expect(JSON.parse(after!.value)).toMatchObject({ summary: 'after' });
    },
  );
});
