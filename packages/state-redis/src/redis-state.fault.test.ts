import { randomUUID } from 'node:crypto';
import { StateUnavailableError } from '@rt/core';
import { installationMarkKey } from '@rt/core/state';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyLayout } from './key-layout.js';
import { STATE_CONNECTION_NAME } from './own-client.js';
import { createRedisState, type RedisState } from './redis-state.js';
import {
  adminClient,
  blockedClients,
  killClientsNamed,
  pauseWrites,
  sleep,
  until,
} from './test-support/redis-admin.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

const key = (label: string) => `fault:${randomUUID()}:${label}`;
/** An rt mark key of one installation per label (`markEvents` takes one installation per call). */
const installationKey = (id: string) => installationMarkKey('event', 'fault', 'T1', id);
const layout = keyLayout('rt:');

describe('redis state across a Redis outage', () => {
  let server: PrivateRedisServer;
  let state: RedisState | undefined;
  let admin: Redis;
  const clients: Redis[] = [];

  beforeEach(async () => {
    server = await startRedisServer();
    admin = adminClient(server.url);
  });
  afterEach(async () => {
    await state?.close();
    state = undefined;
    for (const client of clients.splice(0)) client.disconnect();
    admin.disconnect();
    await server.dispose();
  });

  it('fails the operations in flight when Redis dies and those during the outage, then works again after a restart', async () => {
    state = createRedisState({ url: server.url, maxReconnectDelayMs: 50 });
    const live = state;
    expect(await live.markEvent(key('warm-up'), 60_000)).toBe(true);

    let phase: 'up' | 'down' | 'restarted' = 'up';
    let running = true;
    const errors: unknown[] = [];
    const inFlight = new Set<Promise<unknown>>();
    const track = <T>(operation: Promise<T>): Promise<T> => {
      inFlight.add(operation);
      const settled = () => inFlight.delete(operation);
      operation.then(settled, settled);
      return operation;
    };
    const workers = Array.from({ length: 8 }, () => ({
      cycles: 0,
      failedWhileDown: false,
      okAfterRestart: false,
    }));
    const loops = workers.map(async (worker, index) => {
      while (running) {
        const name = key(`w${index}-${worker.cycles}`);
        try {
          await track(live.markEvent(name, 60_000));
          await track(live.markEvents([`${name}:a`, `${name}:b`].map(installationKey), 60_000));
          const lease = await track(live.acquireLock(name, 60_000));
          await track(live.renewLock(lease!, 60_000));
          await track(live.releaseLock(lease!));
          worker.cycles += 1;
          if (phase === 'restarted') worker.okAfterRestart = true;
        } catch (error) {
          errors.push(error);
          if (phase === 'down') worker.failedWhileDown = true;
          await sleep(5);
        }
      }
    });

    await until(() => workers.every((worker) => worker.cycles > 0));
    // Hold every write back, so the operations are provably on the wire when the server dies.
    await pauseWrites(admin);
    await until(async () => (await blockedClients(admin, STATE_CONNECTION_NAME)).length > 0);
    await until(() => inFlight.size === workers.length);
    const atStop = [...inFlight];
    phase = 'down';
    await server.stop();
    const fates = await Promise.allSettled(atStop);
    expect(fates.length).toBe(workers.length);
    for (const fate of fates) {
      expect(fate.status).toBe('rejected');
      expect((fate as PromiseRejectedResult).reason).toBeInstanceOf(StateUnavailableError);
    }
    await until(() => workers.every((worker) => worker.failedWhileDown));
    await expect(live.markEvent(key('while-down'), 60_000)).rejects.toBeInstanceOf(
      StateUnavailableError,
    );

    await server.restart();
    phase = 'restarted';
    await until(() => workers.every((worker) => worker.okAfterRestart));
    running = false;
    await Promise.all(loops);

    for (const error of errors) expect(error).toBeInstanceOf(StateUnavailableError);
    expect(await live.markEvent(key('after'), 60_000)).toBe(true);
  });

  it('never applies a markEvent that failed when its connection dropped, even through a caller client with ioredis defaults', async () => {
    // The caller's client keeps the ioredis defaults (offline queue, 20 retries per request,
    // re-send of unanswered commands after a reconnect).
    const client = new Redis(server.url, { connectionName: 'caller' });
    client.on('error', () => undefined);
    clients.push(client);

    // Control: such a client re-sends a write whose connection dropped, and it takes effect.
    const control = key('control');
    await pauseWrites(admin);
    const controlSet = client.set(layout.markKey(control), '1', 'PX', 60_000, 'NX');
    await until(async () => (await blockedClients(admin, 'caller')).length > 0);
    expect(await killClientsNamed(admin, 'caller')).toBe(1);
    await admin.client('UNPAUSE');
    expect(await controlSet).toBe('OK');
    expect(await admin.exists(layout.markKey(control))).toBe(1);

    // The State runs its commands on its own fail-fast duplicate of that client.
    state = createRedisState({ client, maxReconnectDelayMs: 50 });
    const live = state;
    const name = key('dropped-mark');
    expect(await live.markEvent(key('warm-up'), 60_000)).toBe(true);
    await pauseWrites(admin);
    // The handler is attached at once: the rejection may come while the test is still killing.
    const markingFails = expect(live.markEvent(name, 60_000)).rejects.toBeInstanceOf(
      StateUnavailableError,
    );
    await until(async () => (await blockedClients(admin, STATE_CONNECTION_NAME)).length > 0);
    expect(await killClientsNamed(admin, STATE_CONNECTION_NAME)).toBe(1);
    await markingFails;
    await admin.client('UNPAUSE');

    await until(() => live.client.status === 'ready');
    // A re-sent SET would be answered before this PING on the same connection.
    expect(await live.client.ping()).toBe('PONG');
    expect(await admin.exists(layout.markKey(name))).toBe(0);
    expect(await live.markEvent(name, 60_000)).toBe(true);
    expect(client.status).toBe('ready');
  });

  it('never applies any key of a markEvents that failed when its connection dropped', async () => {
    state = createRedisState({ url: server.url, maxReconnectDelayMs: 50 });
    const live = state;
    const tenant = randomUUID();
    const keys = ['Ev1', 'C1/1.1', 'C1/1.2'].map((id) =>
      installationMarkKey('event', 'f', tenant, id),
    );
    expect(await live.markEvents([installationMarkKey('event', 'f', tenant, 'warm')], 60_000)).toBe(
      true,
    );
    await pauseWrites(admin);
    // The handler is attached at once: the rejection may come while the test is still killing.
    const markingFails = expect(live.markEvents(keys, 60_000)).rejects.toBeInstanceOf(
      StateUnavailableError,
    );
    await until(async () => (await blockedClients(admin, STATE_CONNECTION_NAME)).length > 0);
    const [blocked] = await blockedClients(admin, STATE_CONNECTION_NAME);
    expect(blocked!.cmd).toBe('evalsha');
    expect(await killClientsNamed(admin, STATE_CONNECTION_NAME)).toBe(1);
    await markingFails;
    await admin.client('UNPAUSE');

    await until(() => live.client.status === 'ready');
    // A re-sent script would be answered before this PING on the same connection.
    expect(await live.client.ping()).toBe('PONG');
    expect(await admin.exists(...keys.map((name) => layout.markKey(name)))).toBe(0);
    // The platform's retry of that delivery is accepted, under every one of its keys.
    expect(await live.markEvents(keys, 60_000)).toBe(true);
  });

  it('never hands an operation to a disconnected client, so nothing failed runs later', async () => {
    await server.stop();
    // A caller-owned client with ioredis defaults: it would queue commands while offline.
    const client = new Redis(server.url, { retryStrategy: () => 50 });
    client.on('error', () => undefined);
    clients.push(client);
    state = createRedisState({ client, commandTimeoutMs: 200, maxReconnectDelayMs: 50 });
    const live = state;
    const name = key('offline');
    await expect(live.markEvent(name, 60_000)).rejects.toBeInstanceOf(StateUnavailableError);
    await expect(live.acquireLock(name, 60_000)).rejects.toBeInstanceOf(StateUnavailableError);

    await server.restart();
    await until(() => client.status === 'ready' && live.client.status === 'ready');
    await client.ping();
    await live.client.ping();
    expect(await client.exists(layout.markKey(name), layout.lockKey(name))).toBe(0);
    expect(await live.markEvent(name, 60_000)).toBe(true);
  });

  it('times out a command the server does not answer within commandTimeoutMs', async () => {
    state = createRedisState({ url: server.url, commandTimeoutMs: 200 });
    expect(await state.markEvent(key('before'), 60_000)).toBe(true);
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
