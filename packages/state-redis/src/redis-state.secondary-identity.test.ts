import { randomUUID } from 'node:crypto';
import { createRuntime, type Runtime } from '@rt/core';
import { installationMarkKey } from '@rt/core/state';
import { createTestAdapter, deferred, type TestAdapter } from '@rt/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedisState, type RedisState } from './redis-state.js';
import { type PrivateRedisServer, startRedisServer } from './test-support/redis-server.js';

/** The secondary identity a Slack-like adapter gives message `ts` of channel C-test. */
const messageKey = (ts: string) => installationMarkKey('message', 'test', 'T-test', `C-test:${ts}`);

/** One message as a delivery under event id `id` (the platform may use several ids for it). */
const copy = (id: string, ts: string) => ({ id, aliases: [messageKey(ts)], thread: ts });

describe('runtimes marking secondary identities on a shared Redis state (MultiKeyMark)', () => {
  let server: PrivateRedisServer;
  let prefix: string;
  const states: RedisState[] = [];
  const runtimes: Runtime[] = [];

  const instance = (
    options: Partial<Parameters<typeof createRuntime>[0]> = {},
  ): { runtime: Runtime; adapter: TestAdapter } => {
    const state = createRedisState({ url: server.url, prefix });
    const adapter = createTestAdapter();
    const runtime = createRuntime({ ...options, state, adapters: [adapter] });
    states.push(state);
    runtimes.push(runtime);
    return { runtime, adapter };
  };

  beforeEach(async () => {
    server = await startRedisServer();
    prefix = `rt-it-${randomUUID().slice(0, 8)}:`;
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.shutdown({ graceMs: 100 })));
    await Promise.all(states.splice(0).map((state) => state.close()));
    await server.dispose();
  });

  it('handles one message sent under two event ids to two runtimes at once exactly once', async () => {
    const handled: string[] = [];
    const a = instance();
    const b = instance();
    for (const { runtime } of [a, b]) runtime.onMessage((ctx) => void handled.push(ctx.event.id));
    for (let round = 0; round < 20; round += 1) {
      const ts = `1760000000.${String(round).padStart(6, '0')}`;
      const results = await Promise.all([
        a.adapter.send(copy(`EvA-${round}`, ts)),
        b.adapter.send(copy(`EvB-${round}`, ts)),
      ]);
      expect(results.map((result) => result.status).sort(), ts).toEqual(['accepted', 'duplicate']);
      // A plain redelivery of either event id is still a duplicate on either runtime.
      await expect(b.adapter.send(copy(`EvA-${round}`, ts))).resolves.toEqual({
        status: 'duplicate',
      });
      await expect(a.adapter.send(copy(`EvB-${round}`, ts))).resolves.toEqual({
        status: 'duplicate',
      });
    }
    await Promise.all([a.adapter.settled(), b.adapter.settled()]);
    expect(handled).toHaveLength(20);
  });

  it('marks a copy refused at a full bound under neither key in Redis', async () => {
    const { runtime, adapter } = instance({ maxDetached: 1 });
    let hold = deferred();
    const handled: string[] = [];
    runtime.onMessage(async (ctx) => {
      handled.push(ctx.event.id);
      if (ctx.event.id.startsWith('EvHold')) await hold.promise;
    });
    await adapter.send({ id: 'EvHold1' });
    await expect(adapter.send(copy('EvRefused', '1.1'))).rejects.toMatchObject({
      reason: 'capacity',
    });
    hold.resolve();
    await adapter.settled();
    // The message key was not marked: another event id of the message is accepted...
    await expect(adapter.send(copy('EvOther', '1.1'))).resolves.toMatchObject({
      status: 'accepted',
    });
    await adapter.settled();
    // ...and the refused copy's retry now meets the mark the other copy took.
    await expect(
      adapter.send({ ...copy('EvRefused', '1.1'), retry: { attempt: 1 } }),
    ).resolves.toEqual({ status: 'duplicate' });

    hold = deferred();
    await adapter.send({ id: 'EvHold2' });
    await expect(adapter.send(copy('EvAlone', '2.2'))).rejects.toMatchObject({
      reason: 'capacity',
    });
    hold.resolve();
    await adapter.settled();
    // The event id was not marked either: the retry of a refused copy is handled.
    await expect(
      adapter.send({ ...copy('EvAlone', '2.2'), retry: { attempt: 1 } }),
    ).resolves.toMatchObject({ status: 'accepted' });
    await adapter.settled();
    expect(handled).toEqual(['EvHold1', 'EvOther', 'EvHold2', 'EvAlone']);
  });
});
