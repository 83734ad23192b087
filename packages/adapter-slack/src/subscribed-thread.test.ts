import type { Observation, RtEvent } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { failOnUnhandledRejections } from '@rt/testing/adapter';
import {
  buildAppMentionEvent,
  buildEventCallback,
  buildMessageEvent,
  SLACK_TEST_IDS,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import {
  HTTP_TRANSPORT,
  type OneMessageBot,
  SOCKET_MODE_TRANSPORT,
} from './test-support/one-message.js';

let seq = 0;
/** A fresh message timestamp, so every test speaks about its own thread. */
function nextTs(): string {
  seq += 1;
  return `1770000${String(seq).padStart(3, '0')}.000300`;
}

const MENTION_TEXT = `<@${SLACK_TEST_IDS.botUserId}> summarise this`;

for (const transport of [HTTP_TRANSPORT, SOCKET_MODE_TRANSPORT]) {
  describe(`a subscribed Slack thread, over ${transport.name}`, () => {
    let bot: OneMessageBot | undefined;
    failOnUnhandledRejections();
    afterEach(async () => {
      await bot?.close();
      bot = undefined;
    });

    /** A bot that subscribes at a mention and records which handler saw what. */
    async function start(subscriptionTtlMs = 60_000) {
      const state = createMemoryState();
      const b = await transport.start({ state });
      bot = b;
      const runs: string[] = [];
      const record = (kind: string) => (ctx: { event: RtEvent }) =>
        void runs.push(`${kind}:${ctx.event.text ?? ctx.event.type}`);
      b.runtime.onMention(async (ctx) => {
        record('mention')(ctx);
        await ctx.thread.subscribe({ ttlMs: subscriptionTtlMs });
      });
      b.runtime.onMessage(record('message'));
      b.runtime.onSubscribedMessage(async (ctx) => {
        record('subscribed')(ctx);
        if (ctx.event.text === 'stop') await ctx.thread.unsubscribe();
      });
      return { b, runs, state };
    }

    it('routes plain replies of the thread to onSubscribedMessage once the mention subscribed it', async () => {
      const { b, runs } = await start();
      const root = nextTs();
      // Slack sends a mention as app_mention and message: one run, on onMention.
      await b.deliver(
        buildAppMentionEvent({ ts: root, text: MENTION_TEXT, eventId: `EvM${root}` }),
      );
      await b.deliver(buildMessageEvent({ ts: root, text: MENTION_TEXT, eventId: `EvC${root}` }));
      await b.finished(2);
      await b.deliver(buildMessageEvent({ ts: nextTs(), threadTs: root, text: 'one' }));
      await b.finished(3);
      // A top-level message of the channel is not in the thread.
      await b.deliver(buildMessageEvent({ ts: nextTs(), text: 'elsewhere' }));
      await b.finished(4);
      expect(runs).toEqual([`mention:${MENTION_TEXT}`, 'subscribed:one', 'message:elsewhere']);
    });

    it('keeps a mention inside the subscribed thread on onMention, run once', async () => {
      const { b, runs } = await start();
      const root = nextTs();
      await b.deliver(buildAppMentionEvent({ ts: root, text: MENTION_TEXT }));
      await b.finished(1);
      const again = nextTs();
      await b.deliver(buildAppMentionEvent({ ts: again, threadTs: root, text: MENTION_TEXT }));
      await b.deliver(
        buildMessageEvent({
          ts: again,
          threadTs: root,
          text: MENTION_TEXT,
          eventId: `EvC${again}`,
        }),
      );
      await b.finished(3);
      expect(runs).toEqual([`mention:${MENTION_TEXT}`, `mention:${MENTION_TEXT}`]);
    });

    it('goes back to onMessage after the handler unsubscribed', async () => {
      const { b, runs } = await start();
      const root = nextTs();
      await b.deliver(buildAppMentionEvent({ ts: root, text: MENTION_TEXT }));
      await b.finished(1);
      for (const [index, text] of ['stop', 'after'].entries()) {
        await b.deliver(buildMessageEvent({ ts: nextTs(), threadTs: root, text }));
        await b.finished(2 + index);
      }
      expect(runs).toEqual([`mention:${MENTION_TEXT}`, 'subscribed:stop', 'message:after']);
    });

    it('goes back to onMessage once the subscription TTL passed without a message', async () => {
      const { b, runs } = await start(150);
      const root = nextTs();
      await b.deliver(buildAppMentionEvent({ ts: root, text: MENTION_TEXT }));
      await b.finished(1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await b.deliver(buildMessageEvent({ ts: nextTs(), threadTs: root, text: 'late' }));
      await b.finished(2);
      expect(runs).toEqual([`mention:${MENTION_TEXT}`, 'message:late']);
    });

    it('ends the subscription when the thread root is deleted', async () => {
      const { b, runs, state } = await start();
      const root = nextTs();
      await b.deliver(buildAppMentionEvent({ ts: root, text: MENTION_TEXT }));
      await b.finished(1);
      const key = `slack:${SLACK_TEST_IDS.teamId}:${SLACK_TEST_IDS.channelId}:${encodeURIComponent(root)}`;
      expect(await state.isSubscribed(key)).toBe(true);
      const deletion = buildEventCallback({
        type: 'message',
        subtype: 'message_deleted',
        channel: SLACK_TEST_IDS.channelId,
        hidden: true,
        deleted_ts: root,
        ts: nextTs(),
        event_ts: nextTs(),
        previous_message: {
          type: 'message',
          user: SLACK_TEST_IDS.userId,
          text: MENTION_TEXT,
          ts: root,
        },
      });
      expect(await b.deliver(deletion)).toBe('acked');
      await until(async () => !(await state.isSubscribed(key)));
      await b.deliver(buildMessageEvent({ ts: nextTs(), threadTs: root, text: 'orphan' }));
      await b.finished(3); // the mention, the (unrouted) deletion, the orphan
      expect(runs).toEqual([`mention:${MENTION_TEXT}`, 'message:orphan']);
      expect(countOf(b.observations, 'prelude_error')).toBe(0);
    });
  });
}

function countOf(observations: readonly Observation[], type: Observation['type']): number {
  return observations.filter((o) => o.type === type).length;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition never held');
}
