import { randomUUID } from 'node:crypto';
import { StateUnavailableError } from '@rt/core';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyLayout } from './key-layout.js';
import { createRedisState, type RedisState } from './redis-state.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const key = (label: string) => `fault:${randomUUID()}:${label}`;

/** Polls `condition` every 10 ms until it holds (the test's own timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

describe('redis state across a Redis outage', () => {
  let server: PrivateRedisServer;
  let state: RedisState | undefined;
  const clients: Redis[] = [];

  beforeEach(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    await state?.close();
    state = undefined;
    for (const client of clients.splice(0)) client.disconnect();
    await server.dispose();
  });

  it('fails operations in flight and during the outage with StateUnavailableError, then works again after a restart', async () => {
    state = createRedisState({ url: server.url, commandTimeoutMs: 500, maxReconnectDelayMs: 50 });
    const live = state;
    expect(await live.markEvent(key('warm-up'), 60_000)).toBe(true);

    let phase: 'up' | 'down' | 'restarted' = 'up';
    let running = true;
    const errors: unknown[] = [];
    const workers = Array.from({ length: 8 }, () => ({
      failedWhileDown: false,
      okAfterRestart: false,
    }));
    const loops = workers.map(async (worker, index) => {
      let round = 0;
      while (running) {
        round += 1;
        const name = key(`w${index}-${round}`);
        try {
          await live.markEvent(name, 60_000);
          const lease = await live.acquireLock(name, 60_000);
          await live.renewLock(lease!, 60_000);
          await live.releaseLock(lease!);
          if (phase === 'restarted') worker.okAfterRestart = true;
        } catch (error) {
          errors.push(error);
          if (phase === 'down') worker.failedWhileDown = true;
          await sleep(5);
        }
      }
    });

    await sleep(50);
    phase = 'down';
    await server.stop();
    await until(() => workers.every((worker) => worker.failedWhileDown));
    await expect(live.markEvent(key('while-down'), 60_000)).rejects.toBeInstanceOf(
      StateUnavailableError,
    );

    await server.restart();
    phase = 'restarted';
    await until(() => workers.every((worker) => worker.okAfterRestart));
    running = false;
    await Promise.all(loops);

    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toBeInstanceOf(StateUnavailableError);
    expect(await live.markEvent(key('after'), 60_000)).toBe(true);
  });

  it('never hands an operation to a disconnected client, so nothing failed runs later', async () => {
    await server.stop();
    // A caller-owned client with ioredis defaults: it would queue commands while offline.
    const client = new Redis(server.url, { retryStrategy: () => 50 });
    client.on('error', () => undefined);
    clients.push(client);
    state = createRedisState({ client, commandTimeoutMs: 200 });
    const name = key('offline');
    await expect(state.markEvent(name, 60_000)).rejects.toBeInstanceOf(StateUnavailableError);
    await expect(state.acquireLock(name, 60_000)).rejects.toBeInstanceOf(StateUnavailableError);

    await server.restart();
    await until(() => client.status === 'ready');
    await client.ping();
    const layout = keyLayout('rt:');
    expect(await client.exists(layout.markKey(name), layout.lockKey(name))).toBe(0);
    expect(await state.markEvent(name, 60_000)).toBe(true);
  });

  it('times out a command the server does not answer within commandTimeoutMs', async () => {
    state = createRedisState({ url: server.url, commandTimeoutMs: 200 });
    expect(await state.markEvent(key('before'), 60_000)).toBe(true);
    const admin = new Redis(server.url);
    clients.push(admin);
    await admin.client('PAUSE', 1500, 'ALL');
    const error = await state.acquireLock(key('paused'), 60_000).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(StateUnavailableError);
    expect((error as Error).message).toMatch(/timed out/);
    await admin.client('UNPAUSE');
    expect(await state.markEvent(key('after'), 60_000)).toBe(true);
  });

  it('closes promptly while the server is down and stops reconnecting', async () => {
    state = createRedisState({ url: server.url, commandTimeoutMs: 200, maxReconnectDelayMs: 20 });
    const live = state;
    expect(await live.markEvent(key('up'), 60_000)).toBe(true);
    await server.stop();
    await expect(live.markEvent(key('down'), 60_000)).rejects.toBeInstanceOf(StateUnavailableError);
    await until(() => live.client.status === 'reconnecting');
    await live.close();
    await server.restart();
    await sleep(200); // ten reconnect delays: a live reconnect timer would have connected by now
    expect(live.client.status).not.toBe('ready');
    expect(['end', 'reconnecting']).toContain(live.client.status);
  });
});
