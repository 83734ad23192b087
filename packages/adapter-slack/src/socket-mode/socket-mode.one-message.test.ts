import type { RtEvent } from '@rt/core';
import { deferred } from '@rt/testing';
import { buildAppMentionEvent, buildMessageEvent } from '@rt/testing/slack';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SocketHarness, startSocketHarness } from '../test-support/socket-harness.js';

const MENTION_TEXT = '<@U0BOT> status?';

describe("Socket Mode redelivery of one message's copies (withheld acks)", () => {
  let h: SocketHarness;
  afterEach(async () => {
    await h.close();
  });

  async function saturated() {
    h = await startSocketHarness({ runtime: { maxDetached: 1 } });
    const hold = deferred();
    const handled: RtEvent[] = [];
    h.runtime.onMention((ctx) => void handled.push(ctx.event));
    h.runtime.onMessage(async (ctx) => {
      handled.push(ctx.event);
      if (ctx.event.id === 'EvHold') await hold.promise;
    });
    const holding = h.fake.send(buildMessageEvent({ eventId: 'EvHold', channel: 'C9' }));
    await h.fake.waitForAck(holding.envelope_id);
    await vi.waitFor(() => expect(handled).toHaveLength(1));
    return { hold, handled };
  }

  it('leaves a refused app_mention unacked and unmarked: the message copy runs the mention handler, and the redelivery is a duplicate', async () => {
    const { hold, handled } = await saturated();
    const mention = buildAppMentionEvent({ ts: '1.5', text: MENTION_TEXT, eventId: 'EvMention' });
    const refused = h.fake.send(mention);
    await h.observed((o) => o.type === 'admission_rejected' && o.event.id === 'EvMention');
    expect(h.fake.acksOf(refused.envelope_id)).toEqual([]);
    hold.resolve();
    await h.observed((o) => o.type === 'dispatch_finished' && o.event.id === 'EvHold');

    const message = h.fake.send(
      buildMessageEvent({ ts: '1.5', text: MENTION_TEXT, eventId: 'EvMessage' }),
    );
    await h.fake.waitForAck(message.envelope_id);
    await h.observed((o) => o.type === 'dispatch_finished' && o.event.id === 'EvMessage');

    const [redelivery] = h.fake.redeliverUnacked();
    expect(redelivery?.payload.event_id).toBe('EvMention');
    expect((await h.fake.waitForAck(redelivery!.envelope_id)).payload).toEqual({});
    await h.observed(
      (o) =>
        o.type === 'dispatch_finished' && o.event.id === 'EvMention' && o.outcome === 'duplicate',
    );
    expect(handled.map((e) => `${e.kind}:${e.id}`)).toEqual([
      'message:EvHold',
      'mention:EvMessage',
    ]);
  });

  it('handles a refused copy on its redelivery when no other copy came', async () => {
    const { hold, handled } = await saturated();
    const refused = h.fake.send(
      buildAppMentionEvent({ ts: '1.6', text: MENTION_TEXT, eventId: 'EvAlone' }),
    );
    await h.observed((o) => o.type === 'admission_rejected' && o.event.id === 'EvAlone');
    expect(h.fake.acksOf(refused.envelope_id)).toEqual([]);
    hold.resolve();
    await h.observed((o) => o.type === 'dispatch_finished' && o.event.id === 'EvHold');
    const [redelivery] = h.fake.redeliverUnacked();
    await h.fake.waitForAck(redelivery!.envelope_id);
    await h.observed(
      (o) =>
        o.type === 'dispatch_finished' && o.event.id === 'EvAlone' && o.outcome === 'completed',
    );
    expect(handled.map((e) => `${e.kind}:${e.id}`)).toEqual(['message:EvHold', 'mention:EvAlone']);
    expect(handled[1]?.retry).toEqual({ attempt: 1, reason: 'timeout' });
  });
});
