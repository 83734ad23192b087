import type { Observation, RtEvent } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { deferred, stateWith } from '@rt/testing';
import {
  buildAppMentionEvent,
  buildMessageEvent,
  SLACK_TEST_IDS,
  type SlackTestPayload,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import {
  HTTP_TRANSPORT,
  type OneMessageBot,
  type OneMessageBotOptions,
  SOCKET_MODE_TRANSPORT,
} from './test-support/one-message.js';

let seq = 0;
/** A fresh message timestamp, so every test speaks about its own message. */
function nextTs(): string {
  seq += 1;
  return `1760000${String(seq).padStart(3, '0')}.000200`;
}

const MENTION_TEXT = `<@${SLACK_TEST_IDS.botUserId}> what is the status?`;

/** One message as Slack sends it to an app subscribed to `app_mention` and `message.channels`. */
function copiesOf(ts: string): { mention: SlackTestPayload; message: SlackTestPayload } {
  return {
    mention: buildAppMentionEvent({ ts, text: MENTION_TEXT, eventId: `EvMention${ts}` }),
    message: buildMessageEvent({ ts, text: MENTION_TEXT, eventId: `EvMessage${ts}` }),
  };
}

/** What ran: `mention:<event id>` or `message:<event id>` per handler run. */
function recordRuns(bot: OneMessageBot, handlers: 'mention' | 'message' | 'both' = 'both') {
  const runs: string[] = [];
  const record = (kind: string) => (ctx: { event: RtEvent }) =>
    void runs.push(`${kind}:${ctx.event.id}`);
  if (handlers !== 'message') bot.runtime.onMention(record('mention'));
  if (handlers !== 'mention') bot.runtime.onMessage(record('message'));
  return runs;
}

const outcomes = (bot: OneMessageBot) =>
  bot.observations
    .filter(
      (o): o is Extract<Observation, { type: 'dispatch_finished' }> =>
        o.type === 'dispatch_finished',
    )
    .map((o) => `${o.event.id}:${o.outcome}`);

/** A small deterministic PRNG (mulberry32), so a failing order can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

for (const transport of [HTTP_TRANSPORT, SOCKET_MODE_TRANSPORT]) {
  describe(`one message, one handler run, over ${transport.name}`, () => {
    let bot: OneMessageBot | undefined;
    afterEach(async () => {
      await bot?.close();
      bot = undefined;
    });
    const start = async (options?: OneMessageBotOptions) => {
      bot = await transport.start(options);
      return bot;
    };

    describe('the same message under two event ids', () => {
      it('is handled once when the copies arrive one after the other', async () => {
        const b = await start();
        const runs = recordRuns(b);
        const ts = nextTs();
        expect(await b.deliver(buildMessageEvent({ ts, eventId: 'EvFirst' }))).toBe('acked');
        await b.finished(1);
        expect(await b.deliver(buildMessageEvent({ ts, eventId: 'EvSecond' }))).toBe('acked');
        await b.finished(2);
        expect(runs).toEqual(['message:EvFirst']);
        expect(outcomes(b)).toEqual(['EvFirst:completed', 'EvSecond:duplicate']);
      });

      it('is handled once when the copies arrive at the same time', async () => {
        const b = await start();
        const runs = recordRuns(b);
        const ts = nextTs();
        const answers = await Promise.all([
          b.deliver(buildMessageEvent({ ts, eventId: 'EvOne' })),
          b.deliver(buildMessageEvent({ ts, eventId: 'EvTwo' })),
        ]);
        expect(answers).toEqual(['acked', 'acked']);
        await b.finished(2);
        expect(runs).toHaveLength(1);
        expect(outcomes(b).sort()).toEqual(
          runs[0] === 'message:EvOne'
            ? ['EvOne:completed', 'EvTwo:duplicate']
            : ['EvOne:duplicate', 'EvTwo:completed'],
        );
      });

      it('is handled once more when it is a different message of the same channel', async () => {
        const b = await start();
        const runs = recordRuns(b);
        await b.deliver(buildMessageEvent({ ts: nextTs(), eventId: 'EvA' }));
        await b.deliver(buildMessageEvent({ ts: nextTs(), eventId: 'EvB' }));
        await b.finished(2);
        expect(runs.sort()).toEqual(['message:EvA', 'message:EvB']);
      });
    });

    describe('app_mention and message for one message, by default (mention wins)', () => {
      it('runs the mention handler once when the mention arrives first', async () => {
        const b = await start();
        const runs = recordRuns(b);
        const { mention, message } = copiesOf(nextTs());
        expect(await b.deliver(mention)).toBe('acked');
        await b.finished(1);
        expect(await b.deliver(message)).toBe('acked');
        await b.finished(2);
        expect(runs).toEqual([`mention:${mention.data.event_id}`]);
        expect(outcomes(b)).toEqual([
          `${mention.data.event_id}:completed`,
          `${message.data.event_id}:duplicate`,
        ]);
      });

      it('runs the mention handler once when the message arrives first', async () => {
        const b = await start();
        const runs = recordRuns(b);
        const { mention, message } = copiesOf(nextTs());
        expect(await b.deliver(message)).toBe('acked');
        await b.finished(1);
        expect(await b.deliver(mention)).toBe('acked');
        await b.finished(2);
        // The message copy ran the mention handler; the app_mention copy is its duplicate.
        expect(runs).toEqual([`mention:${message.data.event_id}`]);
        expect(outcomes(b)).toEqual([
          `${message.data.event_id}:completed`,
          `${mention.data.event_id}:duplicate`,
        ]);
      });

      it('runs the mention handler once when both copies arrive at the same time', async () => {
        const b = await start();
        const runs = recordRuns(b);
        const { mention, message } = copiesOf(nextTs());
        expect(await Promise.all([b.deliver(mention), b.deliver(message)])).toEqual([
          'acked',
          'acked',
        ]);
        await b.finished(2);
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatch(/^mention:/);
        expect(outcomes(b).filter((o) => o.endsWith(':duplicate'))).toHaveLength(1);
      });

      it('answers a Slack retry of either copy as a plain duplicate', async () => {
        const b = await start();
        const runs = recordRuns(b);
        const { mention, message } = copiesOf(nextTs());
        await b.deliver(mention);
        await b.deliver(message);
        await b.finished(2);
        expect(await b.deliver(mention, 1)).toBe('acked');
        expect(await b.deliver(message, 1)).toBe('acked');
        await b.finished(4);
        expect(runs).toEqual([`mention:${mention.data.event_id}`]);
        expect(outcomes(b).slice(2)).toEqual([
          `${mention.data.event_id}:duplicate`,
          `${message.data.event_id}:duplicate`,
        ]);
      });

      it('still hands the message to a bot with message handlers only, once, in either order', async () => {
        const b = await start();
        const runs = recordRuns(b, 'message');
        const first = copiesOf(nextTs());
        await b.deliver(first.mention);
        await b.deliver(first.message);
        const second = copiesOf(nextTs());
        await b.deliver(second.message);
        await b.deliver(second.mention);
        await b.finished(4);
        expect(runs).toEqual([
          `message:${first.message.data.event_id}`,
          `message:${second.message.data.event_id}`,
        ]);
      });

      it('runs the message handler for a message that mentions someone else', async () => {
        const b = await start();
        const runs = recordRuns(b);
        const ts = nextTs();
        await b.deliver(buildMessageEvent({ ts, text: '<@U0OTHER> hi', eventId: 'EvOther' }));
        await b.finished(1);
        expect(runs).toEqual(['message:EvOther']);
      });
    });

    it('handles each of many messages once when all their copies arrive at once, in any order', async () => {
      const b = await start();
      const ranFor: string[] = [];
      b.runtime.onMention((ctx) => void ranFor.push(`mention:${ctx.event.thread}`));
      b.runtime.onMessage((ctx) => void ranFor.push(`message:${ctx.event.thread}`));
      const random = seededRandom(17);
      const messages = Array.from({ length: 12 }, () => nextTs());
      const deliveries = messages.flatMap((ts) => {
        const { mention, message } = copiesOf(ts);
        // Slack's own duplicate of the message copy, under a third event id.
        const again = buildMessageEvent({ ts, text: MENTION_TEXT, eventId: `EvAgain${ts}` });
        return [mention, message, again];
      });
      const answers = await Promise.all(shuffled(deliveries, random).map((p) => b.deliver(p)));
      expect(answers.every((answer) => answer === 'acked')).toBe(true);
      await b.finished(deliveries.length);
      expect(ranFor.sort()).toEqual(messages.map((ts) => `mention:${ts}`).sort());
      expect(outcomes(b).filter((o) => o.endsWith(':duplicate'))).toHaveLength(24);
    });

    describe("app_mention and message for one message, with mentionAndMessage: 'both'", () => {
      // Each copy is its own accepted delivery. Under the default `queue` strategy two deliveries
      // of one thread arriving together may coalesce (the older reaches the survivor in
      // `ctx.skipped`); `concurrent` runs every accepted delivery, so runs count deliveries.
      const both = {
        adapter: { mentionAndMessage: 'both' as const },
        runtime: { concurrency: 'concurrent' as const },
      };

      it('runs each handler once in either order', async () => {
        const b = await start(both);
        const runs = recordRuns(b);
        const first = copiesOf(nextTs());
        await b.deliver(first.mention);
        await b.deliver(first.message);
        const second = copiesOf(nextTs());
        await b.deliver(second.message);
        await b.deliver(second.mention);
        await b.finished(4);
        expect(runs.sort()).toEqual(
          [
            `mention:${first.mention.data.event_id}`,
            `message:${first.message.data.event_id}`,
            `mention:${second.mention.data.event_id}`,
            `message:${second.message.data.event_id}`,
          ].sort(),
        );
      });

      it('runs each handler once when both copies arrive at the same time', async () => {
        const b = await start(both);
        const runs = recordRuns(b);
        const { mention, message } = copiesOf(nextTs());
        await Promise.all([b.deliver(mention), b.deliver(message)]);
        await b.finished(2);
        expect(runs.sort()).toEqual([
          `mention:${mention.data.event_id}`,
          `message:${message.data.event_id}`,
        ]);
      });

      it('still handles each copy once when Slack sends it under a second event id', async () => {
        const b = await start(both);
        const runs = recordRuns(b);
        const ts = nextTs();
        await b.deliver(buildAppMentionEvent({ ts, text: MENTION_TEXT, eventId: 'EvM1' }));
        await b.deliver(buildAppMentionEvent({ ts, text: MENTION_TEXT, eventId: 'EvM2' }));
        await b.deliver(buildMessageEvent({ ts, text: MENTION_TEXT, eventId: 'EvP1' }));
        await b.deliver(buildMessageEvent({ ts, text: MENTION_TEXT, eventId: 'EvP2' }));
        await b.finished(4);
        expect(runs.sort()).toEqual(['mention:EvM1', 'message:EvP1']);
      });
    });

    describe('a copy refused at a full admission bound', () => {
      async function saturated() {
        const b = await start({ runtime: { maxDetached: 1 } });
        const hold = deferred();
        const runs: string[] = [];
        b.runtime.onMessage(async (ctx) => {
          runs.push(ctx.event.id);
          if (ctx.event.id === 'EvHold') await hold.promise;
        });
        expect(
          await b.deliver(buildMessageEvent({ ts: nextTs(), eventId: 'EvHold', channel: 'C9' })),
        ).toBe('acked');
        return { b, hold, runs };
      }

      it('is marked under neither key: the other copy is accepted, then the refused copy is a duplicate', async () => {
        const { b, hold, runs } = await saturated();
        const ts = nextTs();
        const refused = buildMessageEvent({ ts, eventId: 'EvRefused' });
        expect(await b.deliver(refused)).toBe('refused');
        hold.resolve();
        await b.finished(2);
        expect(await b.deliver(buildMessageEvent({ ts, eventId: 'EvOtherCopy' }))).toBe('acked');
        await b.finished(3);
        expect(await b.deliver(refused, 1)).toBe('acked');
        await b.finished(4);
        expect(runs).toEqual(['EvHold', 'EvOtherCopy']);
        expect(outcomes(b)).toEqual([
          'EvRefused:admission-rejected',
          'EvHold:completed',
          'EvOtherCopy:completed',
          'EvRefused:duplicate',
        ]);
      });

      it('is handled when Slack retries it', async () => {
        const { b, hold, runs } = await saturated();
        const refused = buildMessageEvent({ ts: nextTs(), eventId: 'EvRefused' });
        expect(await b.deliver(refused)).toBe('refused');
        hold.resolve();
        await b.finished(2);
        expect(await b.deliver(refused, 1)).toBe('acked');
        await b.finished(3);
        expect(runs).toEqual(['EvHold', 'EvRefused']);
      });
    });

    describe('on a State without MultiKeyMark', () => {
      it('marks the event id alone, so a second event id runs again, and says so once', async () => {
        const state = stateWith(createMemoryState(), {}, { without: ['MultiKeyMark'] });
        const b = await start({ state });
        const runs = recordRuns(b);
        const ts = nextTs();
        await b.deliver(buildMessageEvent({ ts, eventId: 'EvX1' }));
        await b.deliver(buildMessageEvent({ ts, eventId: 'EvX2' }));
        await b.deliver(buildMessageEvent({ ts, eventId: 'EvX1' }), 1);
        await b.deliver(buildMessageEvent({ ts: nextTs(), eventId: 'EvY' }));
        await b.finished(4);
        expect(runs.sort()).toEqual(['message:EvX1', 'message:EvX2', 'message:EvY']);
        expect(b.observations.filter((o) => o.type === 'state_capability_missing')).toMatchObject([
          { capability: 'MultiKeyMark', event: { id: 'EvX1', adapter: 'slack' } },
        ]);
      });
    });
  });
}
