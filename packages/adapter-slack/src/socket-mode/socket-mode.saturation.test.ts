import type { RtEvent } from '@rt/core';
import { deferred } from '@rt/testing';
import { buildMessageEvent, buildSlashCommand, buildViewSubmission } from '@rt/testing/slack';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SocketHarness, startSocketHarness } from '../test-support/socket-harness.js';

const BUSY = 'Busy: try again soon.';

describe('Socket Mode at a saturated admission bound', () => {
  let h: SocketHarness;
  afterEach(async () => {
    await h.close();
  });

  it('acks a slash command with the busy payload and leaves an event unacked; its redelivery is handled once', async () => {
    h = await startSocketHarness({
      runtime: { maxDetached: 1 },
      adapter: { busyText: BUSY },
    });
    const hold = deferred();
    const handled: RtEvent[] = [];
    h.runtime.onMessage(async (ctx) => {
      handled.push(ctx.event);
      if (ctx.event.text === 'hold') await hold.promise;
    });
    h.runtime.onCommand('ask', () => undefined);
    const holding = h.fake.send(buildMessageEvent({ eventId: 'EvHOLD', text: 'hold' }));
    await h.fake.waitForAck(holding.envelope_id);
    await vi.waitFor(() => expect(handled).toHaveLength(1));

    const slash = h.fake.send(buildSlashCommand({ command: '/ask' }));
    expect((await h.fake.waitForAck(slash.envelope_id)).payload).toEqual({
      response_type: 'ephemeral',
      text: BUSY,
    });
    const refused = h.fake.send(buildMessageEvent({ eventId: 'EvLATER', text: 'later' }));
    await h.observed(
      (o) => o.type === 'admission_rejected' && o.event.id === 'EvLATER' && o.reason === 'capacity',
    );
    expect(h.fake.acksOf(refused.envelope_id)).toEqual([]);

    hold.resolve();
    await h.observed((o) => o.type === 'dispatch_finished' && o.event.id === 'EvHOLD');
    // Slack redelivers the unacked envelope: new envelope id, the same event_id, retry 1.
    const [redelivery] = h.fake.redeliverUnacked();
    expect(redelivery?.payload.event_id).toBe('EvLATER');
    expect((await h.fake.waitForAck(redelivery!.envelope_id)).payload).toEqual({});
    await vi.waitFor(() => expect(handled.map((e) => e.id)).toEqual(['EvHOLD', 'EvLATER']));
    expect(handled[1]?.retry).toEqual({ attempt: 1, reason: 'timeout' });
    expect(h.fake.redeliverUnacked()).toEqual([]);
  });

  it('runs a sync view submission past a full bound (sync has no cap) and acks its answer', async () => {
    h = await startSocketHarness({ runtime: { maxDetached: 1 } });
    const hold = deferred();
    h.runtime.onMessage(() => hold.promise);
    h.runtime.onFormSubmit('modal_cb', () => ({ response_action: 'clear' }));
    await h.fake.waitForAck(h.fake.send(buildMessageEvent()).envelope_id);
    const view = h.fake.send(buildViewSubmission());
    expect((await h.fake.waitForAck(view.envelope_id)).payload).toEqual({
      response_action: 'clear',
    });
    hold.resolve();
  });
});
