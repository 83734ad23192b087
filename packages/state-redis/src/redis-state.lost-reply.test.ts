import { randomUUID } from 'node:crypto';
import { StateUnavailableError } from '@rt/core';
import { installationMarkKey } from '@rt/core/state';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyLayout } from './key-layout.js';
import { STATE_CONNECTION_NAME } from './own-client.js';
import { createRedisState, type RedisState } from './redis-state.js';
import { forgetMarksScript, markEventsScript } from './scripts/scripts.js';
import {
  adminClient,
  blockedClients,
  killClientsNamed,
  pauseWrites,
  until,
} from './test-support/redis-admin.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

const layout = keyLayout('rt:');

/** How many EVAL and EVALSHA commands the server has run since it started. */
async function scriptCalls(admin: Redis): Promise<number> {
  const stats = String(await admin.info('commandstats'));
  let calls = 0;
  for (const match of stats.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g))
    calls += Number(match[1]);
  return calls;
}
const eventKey = (tenant: string, id: string) => installationMarkKey('event', 'lost', tenant, id);

describe('redis state when a mark reply is lost', () => {
  let server: PrivateRedisServer;
  let admin: Redis;
  const states: RedisState[] = [];
  const open = () => {
    const state = createRedisState({ url: server.url, commandTimeoutMs: 200 });
    states.push(state);
    return state;
  };
  /** Runs `mark` while Redis holds every write back past the State's budget; it must reject. */
  const withHeldReply = async (state: RedisState, mark: () => Promise<boolean>) => {
    await pauseWrites(admin);
    const failing = mark().catch((reason: unknown) => reason);
    await until(async () => (await blockedClients(admin, STATE_CONNECTION_NAME)).length > 0);
    const error = await failing;
    expect(error).toBeInstanceOf(StateUnavailableError);
    expect((error as Error).message).toMatch(/timed out/);
    await admin.client('UNPAUSE');
    await until(() => state.client.status === 'ready');
  };

  beforeEach(async () => {
    server = await startRedisServer();
    admin = adminClient(server.url);
  });
  afterEach(async () => {
    await Promise.all(states.splice(0).map((state) => state.close()));
    admin.disconnect();
    await server.dispose();
  });

  it('accepts the retry on the same State as a first mark after the held mark ran late', async () => {
    const state = open();
    const tenant = randomUUID();
    expect(await state.markEvent(eventKey(tenant, 'warm'), 60_000)).toBe(true);
    const name = eventKey(tenant, 'Ev1');
    await withHeldReply(state, () => state.markEvent(name, 60_000));
    expect(await state.markEvent(name, 60_000)).toBe(true);
    // Definite now: a further delivery is a duplicate.
    expect(await state.markEvent(name, 60_000)).toBe(false);
    expect(await admin.get(layout.markKey(name))).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves no mark behind once the compensator ran, so a retry on another State is a first mark', async () => {
    const first = open();
    const second = open();
    const tenant = randomUUID();
    expect(await first.markEvent(eventKey(tenant, 'warm'), 60_000)).toBe(true);
    const name = eventKey(tenant, 'Ev1');
    await withHeldReply(first, () => first.markEvent(name, 60_000));
    expect(await first.markEvent(eventKey(tenant, 'other'), 60_000)).toBe(true);
    await until(async () => (await admin.exists(layout.markKey(name))) === 0);
    expect(await second.markEvent(name, 60_000)).toBe(true);
    // The first State's doubt does not turn the second State's genuine mark into its own.
    expect(await first.markEvent(name, 60_000)).toBe(false);
  });

  it('still answers duplicate when another State marked the key before the held mark', async () => {
    const first = open();
    const second = open();
    const tenant = randomUUID();
    const name = eventKey(tenant, 'Ev1');
    expect(await second.markEvent(name, 60_000)).toBe(true);
    const genuine = await admin.get(layout.markKey(name));
    await withHeldReply(first, () => first.markEvent(name, 60_000));
    expect(await first.markEvent(name, 60_000)).toBe(false);
    expect(await first.markEvent(eventKey(tenant, 'other'), 60_000)).toBe(true);
    // The compensator never removes a mark it did not write.
    expect(await first.client.ping()).toBe('PONG');
    expect(await admin.get(layout.markKey(name))).toBe(genuine);
  });

  it('treats a markEvents whose reply was held like a markEvent, under every one of its keys', async () => {
    const first = open();
    const second = open();
    const tenant = randomUUID();
    const keys = ['Ev1', 'C1/1.1'].map((id) => eventKey(tenant, id));
    const again = ['Ev2', 'C1/1.2'].map((id) => eventKey(tenant, id));
    expect(await first.markEvents([eventKey(tenant, 'warm')], 60_000)).toBe(true);

    await withHeldReply(first, () => first.markEvents(keys, 60_000));
    expect(await first.markEvents(keys, 60_000)).toBe(true);
    expect(await second.markEvents(keys, 60_000)).toBe(false);

    await withHeldReply(first, () => first.markEvents(again, 60_000));
    expect(await first.markEvent(eventKey(tenant, 'other'), 60_000)).toBe(true);
    await until(
      async () => (await admin.exists(...again.map((name) => layout.markKey(name)))) === 0,
    );
    expect(await second.markEvents(again, 60_000)).toBe(true);
    expect(await first.markEvents(again, 60_000)).toBe(false);
  });

  it('compensates a mark whose connection dropped once the connection is ready again', async () => {
    const first = open();
    const second = open();
    const tenant = randomUUID();
    expect(await first.markEvent(eventKey(tenant, 'warm'), 60_000)).toBe(true);
    const name = eventKey(tenant, 'Ev1');
    await pauseWrites(admin);
    const failing = first.markEvent(name, 60_000).catch((reason: unknown) => reason);
    await until(async () => (await blockedClients(admin, STATE_CONNECTION_NAME)).length > 0);
    await killClientsNamed(admin, STATE_CONNECTION_NAME);
    expect(await failing).toBeInstanceOf(StateUnavailableError);
    await admin.client('UNPAUSE');
    // The compensator runs on `ready`, with no further mark: its script reaches the server.
    await until(async () => (await scriptCalls(admin)) > 0);
    expect(await admin.exists(layout.markKey(name))).toBe(0);
    expect(await second.markEvent(name, 60_000)).toBe(true);
  });

  it('holds nothing in doubt for a mark that failed before it was sent', async () => {
    const state = open();
    const tenant = randomUUID();
    const name = eventKey(tenant, 'Ev1');
    await server.stop();
    await expect(state.markEvent(name, 60_000)).rejects.toBeInstanceOf(StateUnavailableError);
    await server.restart();
    await until(() => state.client.status === 'ready');
    expect(await state.markEvent(eventKey(tenant, 'other'), 60_000)).toBe(true);
    // A compensator would have sent its script before this PING, on the same connection.
    expect(await state.client.ping()).toBe('PONG');
    expect(await scriptCalls(admin)).toBe(0);
    expect(await state.markEvent(name, 60_000)).toBe(true);
    expect(await scriptCalls(admin)).toBe(0);
  });
});

describe('mark scripts', () => {
  let server: PrivateRedisServer;
  let admin: Redis;
  beforeEach(async () => {
    server = await startRedisServer();
    admin = adminClient(server.url);
  });
  afterEach(async () => {
    admin.disconnect();
    await server.dispose();
  });

  it('mark-events takes keys holding an in-doubt token with its fresh token, and no others', async () => {
    await admin.set('a', 'T1');
    await admin.set('b', 'T2');
    expect(await markEventsScript.run(admin, ['a', 'c'], [60_000, 'F', 'T1'])).toBe(1);
    expect(await admin.mget('a', 'c')).toEqual(['F', 'F']);
    expect(await admin.pttl('c')).toBeGreaterThan(0);
    expect(await markEventsScript.run(admin, ['b', 'd'], [60_000, 'G', 'T1'])).toBe(0);
    expect(await admin.mget('b', 'd')).toEqual(['T2', null]);
    expect(await markEventsScript.run(admin, ['d'], [60_000, 'G'])).toBe(1);
    expect(await markEventsScript.run(admin, ['d'], [60_000, 'H'])).toBe(0);
  });

  it('forget-marks deletes only the keys that still hold the lost write’s token', async () => {
    await admin.set('a', 'T1');
    await admin.set('b', 'F');
    expect(await forgetMarksScript.run(admin, ['a', 'b', 'c'], ['T1'])).toBe(1);
    expect(await admin.mget('a', 'b', 'c')).toEqual([null, 'F', null]);
  });
});
