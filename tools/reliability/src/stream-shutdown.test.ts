import { ShutdownError } from '@rt/core';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './support/deferred.js';
import { recordFigures } from './support/figures.js';
import { BED_SECRET, BED_TOKEN, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { deliverMentions, mentionId } from './support/slack-mentions.js';
import { checkStreams, StreamLedger, slackReplies } from './support/stream-ledger.js';

const SHORT = 4;
const LONG = 10;
/** The short replies (about 100 ms) are numbered from here; they finish within the grace. */
const SHORT_FROM = 100;
const GRACE_MS = 300;

describe('shutdown while streamed replies are in flight', () => {
  let bed: SlackBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it.each([
    ['slack-stream', true, 'chat.stopStream'],
    ['slack-update', false, 'chat.update'],
  ] as const)(
    'on the %s path, each stream shows its whole text or its marker after the grace, even when a native end meets a 429',
    async (path: string, native: boolean, endMethod: string) => {
      bed = await startSlackBed({
        runtime: { maxDetached: 64, concurrency: 'queue' },
        adapter: {
          stream: { native, appendIntervalMs: 20, updateIntervalMs: 20 },
        },
        // Native: more ends at once than the limit, so some are refused and each of those waits
        // out one 429 (the next window takes them all) within finishTimeoutMs. A tighter limit
        // would make ends wait several windows plus the WebClient's own retry backoff, past the
        // budget: they would end `unfinished`, honestly, which is not what this test is about.
        // (On the update path every write is a `chat.update`: a limit that tight would keep the
        // short replies from finishing within the grace.)
        webApi: native ? { rateLimits: { [endMethod]: { limit: LONG - 2, windowMs: 1000 } } } : {},
      });
      const ledger = new StreamLedger();
      bed.runtime.onMention(
        ledger.handler({
          keyOf: (event) => event.id,
          chunks: (key) => (Number(key.slice(2)) >= SHORT_FROM ? 5 : 200),
          gapMs: 20,
        }),
      );
      const long = Array.from({ length: LONG }, (_, i) => mentionId(i));
      const short = Array.from({ length: SHORT }, (_, i) => mentionId(SHORT_FROM + i));
      await deliverMentions(bed.url, long);
      const b = bed;
      await until(() => slackReplies(b.webApi.messages.all()).size === LONG);
      await deliverMentions(bed.url, short);
      await b.runtime.shutdown({ graceMs: GRACE_MS });

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
      for (const id of long) {
        expect(finished.get(id)?.status).toBe('interrupted');
        expect(finished.get(id)?.error).toBeInstanceOf(ShutdownError);
      }
      // The short replies finish within the grace unless the machine is too loaded for 100 ms of
      // work in 300 ms; either way each shows its whole text or its marker (checked above).
      for (const id of short) expect(finished.has(id)).toBe(true);
      const outcomes = new Map(
        b.log.observations.flatMap((o) =>
          o.type === 'dispatch_finished' ? [[o.event.id, o.outcome]] : [],
        ),
      );
      for (const id of long) expect(outcomes.get(id)).toBe('shutdown');
      // A short reply whose last write landed as the grace ran out is whole, its outcome the abort's.
      for (const id of short) expect(['completed', 'shutdown']).toContain(outcomes.get(id));
      const completed = short.filter((id) => finished.get(id)?.status === 'completed').length;
      expect(new Set([...finished.values()].map((o) => o.path))).toEqual(new Set([path]));
      if (native) {
        // The end's 429 was met and waited out.
        expect(b.webApi.messages.refused.get(endMethod)).toBeGreaterThan(0);
        for (const message of b.webApi.messages.all()) expect(message.stream).toBe('stopped');
      }
      expect(b.runtime.stats().detachedInFlight).toBe(0);
      expect(b.log.leaks([BED_SECRET, BED_TOKEN])).toEqual([]);
      recordFigures(`stream-shutdown-${path}`, {
        ...figures,
        graceMs: GRACE_MS,
        shortCompleted: completed,
        endsRefused: b.webApi.messages.refused.get(endMethod) ?? 0,
      });
    },
  );
});
