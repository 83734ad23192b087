import { PreemptedError } from '@rt/core';
import { createRedisState } from '@rt/state-redis';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './support/deferred.js';
import { recordFigures } from './support/figures.js';
import { type PrivateRedisServer, startRedisServer } from './support/redis.js';
import { BED_SECRET, BED_TOKEN, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { deliverMentions, mentionId } from './support/slack-mentions.js';
import { checkStreams, StreamLedger, slackReplies } from './support/stream-ledger.js';

const STREAMS = 8;
/** Renewed every 500 ms: a loaded machine's slow renewal does not lose it, an outage does. */
const LOCK_TTL_MS = 1500;
/** The deliveries after the restart (short replies) are numbered from here. */
const AFTER = 500;

describe('Redis stopped while streamed replies are in flight, then restarted', () => {
  let bed: SlackBed | undefined;
  let server: PrivateRedisServer | undefined;
  afterEach(async () => {
    await bed?.close();
    await server?.dispose();
    bed = undefined;
    server = undefined;
  });

  it.each([
    ['slack-stream', true],
    ['slack-update', false],
  ] as const)(
    'on the %s path, each stream whose lease is lost ends with the interrupted marker (outcome preempted), and new deliveries stream whole once Redis is back',
    async (path: string, native: boolean) => {
      server = await startRedisServer();
      const state = createRedisState({
        url: server.url,
        commandTimeoutMs: 250,
        connectTimeoutMs: 250,
        maxReconnectDelayMs: 50,
      });
      bed = await startSlackBed({
        state,
        runtime: { maxDetached: 64, concurrency: 'queue', lockTtlMs: LOCK_TTL_MS },
        adapter: { stream: { native, appendIntervalMs: 20, updateIntervalMs: 20 } },
      });
      const ledger = new StreamLedger();
      // Long replies before the outage (about 5 s: in flight until their leases lapse), short
      // ones after it.
      bed.runtime.onMention(
        ledger.handler({
          keyOf: (event) => event.id,
          chunks: (key) => (Number(key.slice(2)) >= AFTER ? 10 : 100),
          gapMs: 50,
        }),
      );
      const before = Array.from({ length: STREAMS }, (_, i) => mentionId(i));
      const answers = await deliverMentions(bed.url, before);
      expect(answers.every((a) => a.kind === 'response' && a.status === 200)).toBe(true);
      const b = bed;
      // Every stream's first write has landed: each reply is on Slack, growing.
      await until(() => slackReplies(b.webApi.messages.all()).size === STREAMS);

      await server.stop();
      // Renewals fail, the leases lapse (lockTtlMs), the handlers' signals abort.
      await until(
        () => b.log.observations.filter((o) => o.type === 'stream_finished').length === STREAMS,
      );
      await server.restart();
      // The same runtime admits and streams again once Redis answers (a delivery refused while
      // it reconnects is Slack's to retry; here, sent again until accepted).
      const after = Array.from({ length: STREAMS }, (_, i) => mentionId(AFTER + i));
      let pending = after;
      while (pending.length > 0) {
        const results = await deliverMentions(b.url, pending);
        pending = pending.filter((_, i) => {
          const r = results[i]!;
          return !(r.kind === 'response' && r.status === 200);
        });
      }
      await until(() => b.runtime.stats().detachedInFlight === 0);
      await b.runtime.shutdown({ graceMs: 5000 });

      const { violations, figures } = checkStreams({
        ledger,
        shown: slackReplies(b.webApi.messages.all()),
        observations: b.log.observations,
        allowed: ['completed', 'interrupted'],
      });
      expect(violations).toEqual([]);
      const finished = new Map(
        b.log.observations.flatMap((o) => (o.type === 'stream_finished' ? [[o.event.id, o]] : [])),
      );
      for (const id of before) {
        const end = finished.get(id);
        expect(end?.status).toBe('interrupted');
        expect(end?.error).toBeInstanceOf(PreemptedError);
      }
      for (const id of after) {
        const end = finished.get(id);
        expect({ id, status: end?.status, error: end?.error }).toEqual({ id, status: 'completed' });
      }
      const outcomes = new Map(
        b.log.observations.flatMap((o) =>
          o.type === 'dispatch_finished' ? [[o.event.id, o.outcome]] : [],
        ),
      );
      for (const id of before) expect(outcomes.get(id)).toBe('preempted');
      for (const id of after) expect(outcomes.get(id)).toBe('completed');
      expect(new Set([...finished.values()].map((o) => o.path))).toEqual(new Set([path]));
      if (native) {
        for (const message of b.webApi.messages.all()) expect(message.stream).toBe('stopped');
      }
      expect(b.log.leaks([BED_SECRET, BED_TOKEN])).toEqual([]);
      recordFigures(`stream-redis-outage-${path}`, { ...figures, lockTtlMs: LOCK_TTL_MS });
    },
  );
});
