import type { RtEvent } from '@rt/core';
import {
  buildAppMentionEvent,
  buildAppRateLimited,
  buildBlockActions,
  buildBlockSuggestion,
  buildMessageAction,
  buildMessageEvent,
  buildShortcut,
  buildSlashCommand,
  buildViewClosed,
  buildViewSubmission,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SocketHarness, startSocketHarness } from '../test-support/socket-harness.js';

describe('Socket Mode envelopes, with the real client against the fake', () => {
  let h: SocketHarness;
  afterEach(async () => {
    await h.close();
  });

  it('acknowledges every envelope type with the payload Slack accepts and handles each once', async () => {
    h = await startSocketHarness({ adapter: { dispatchModes: { slash_command: 'sync' } } });
    const handled: RtEvent[] = [];
    h.runtime.on(
      () => true,
      (ctx) => {
        handled.push(ctx.event);
        switch (ctx.event.shape) {
          case 'slash_command':
            return `deploying ${ctx.event.text}`;
          case 'view_submission':
            return { response_action: 'errors', errors: { input_block: 'too short' } };
          case 'block_suggestion':
            return [{ text: { type: 'plain_text', text: 'Alpha' }, value: 'a' }];
          default:
            return undefined;
        }
      },
    );
    const sent = [
      h.fake.send(buildMessageEvent({ eventId: 'EvMSG', text: 'hello' })),
      h.fake.send(buildAppMentionEvent({ eventId: 'EvMENTION' })),
      h.fake.send(buildSlashCommand({ command: '/deploy', text: 'api', triggerId: 'trig-slash' })),
      h.fake.send(buildBlockActions({ triggerId: 'trig-button' })),
      h.fake.send(buildMessageAction({ triggerId: 'trig-msg-action' })),
      h.fake.send(buildShortcut({ triggerId: 'trig-shortcut' })),
      h.fake.send(buildViewSubmission({ triggerId: 'trig-view' })),
      h.fake.send(buildViewClosed({ view: { viewId: 'V1', hash: 'h1' } })),
      h.fake.send(buildBlockSuggestion({ value: 'al' })),
    ];
    await h.fake.waitFor(() => (h.fake.acks.length === sent.length ? true : undefined));
    const payloads = sent.map((envelope) => h.fake.acksOf(envelope.envelope_id));
    expect(payloads.map((acks) => acks.length)).toEqual(sent.map(() => 1));
    expect(payloads.map(([ack]) => ack?.payload)).toEqual([
      {},
      {},
      { response_type: 'ephemeral', text: 'deploying api' },
      {},
      {},
      {},
      { response_action: 'errors', errors: { input_block: 'too short' } },
      {},
      { options: [{ text: { type: 'plain_text', text: 'Alpha' }, value: 'a' }] },
    ]);
    await vi.waitFor(() => expect(handled).toHaveLength(sent.length));
    // Direct invocations carry the ids they have over HTTP; events their event_id.
    expect(handled.map((event) => [event.shape, event.id]).slice(0, 8)).toEqual([
      ['event_callback', 'EvMSG'],
      ['event_callback', 'EvMENTION'],
      ['slash_command', 'trig-slash'],
      ['block_actions', 'trig-button'],
      ['message_action', 'trig-msg-action'],
      ['shortcut', 'trig-shortcut'],
      ['view_submission', 'trig-view'],
      ['view_closed', 'view:V1:h1'],
    ]);
    expect(handled[8]).toMatchObject({ shape: 'block_suggestion', text: 'al', dedupeTtlMs: 3000 });
  });

  it('dedupes a redelivered event on its event_id, never on the envelope id', async () => {
    h = await startSocketHarness();
    const handled: RtEvent[] = [];
    h.runtime.onMessage((ctx) => {
      handled.push(ctx.event);
    });
    const first = h.fake.send(buildMessageEvent({ eventId: 'EvONCE' }));
    await h.fake.waitForAck(first.envelope_id);
    // Slack resends the event (its ack was lost on the way): new envelope id, same event_id.
    const again = h.fake.send({
      type: 'events_api',
      payload: first.payload,
    });
    expect(again.envelope_id).not.toBe(first.envelope_id);
    expect((await h.fake.waitForAck(again.envelope_id)).payload).toEqual({});
    await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'duplicate');
    expect(handled.map((event) => event.id)).toEqual(['EvONCE']);
  });

  it('acks an app_rate_limited envelope (no inner event), observes it and keeps handling', async () => {
    h = await startSocketHarness();
    const handled: string[] = [];
    h.runtime.onMessage((ctx) => {
      handled.push(ctx.event.id);
    });
    const limited = h.fake.send(buildAppRateLimited({ minuteRateLimited: 1_700_000_000 }));
    expect((await h.fake.waitForAck(limited.envelope_id)).payload).toEqual({});
    expect(h.notices('app_rate_limited')).toMatchObject([
      { detail: { teamId: 'T0TEAM', minuteRateLimited: 1_700_000_000 } },
    ]);
    const later = h.fake.send(buildMessageEvent({ eventId: 'EvAFTER' }));
    await h.fake.waitForAck(later.envelope_id);
    await vi.waitFor(() => expect(handled).toEqual(['EvAFTER']));
    expect(h.notices('client_handler_failed')).toEqual([]);
  });

  it('acks and reports envelopes it cannot read (no inner event, no payload, an unknown type)', async () => {
    h = await startSocketHarness();
    const noEvent = h.fake.send({
      type: 'events_api',
      payload: { type: 'event_callback', event_id: 'EvBROKEN', team_id: 'T0TEAM' },
    });
    const nullPayload = h.fake.send({ type: 'events_api', payload: null as never });
    const unknown = h.fake.send({ type: 'mystery' as never, payload: {} });
    for (const envelope of [noEvent, nullPayload, unknown]) {
      expect((await h.fake.waitForAck(envelope.envelope_id)).payload).toEqual({});
    }
    expect(h.notices('envelope_invalid').map((n) => n.detail?.envelopeId)).toEqual([
      noEvent.envelope_id,
      nullPayload.envelope_id,
      unknown.envelope_id,
    ]);
    expect(h.notices('client_handler_failed')).toEqual([]);
  });

  it('acks without the body, and reports it, where the envelope accepts no response payload', async () => {
    h = await startSocketHarness({ adapter: { dispatchModes: { slash_command: 'sync' } } });
    h.runtime.onCommand('rt', () => 'an answer');
    const envelope = h.fake.send({
      type: 'slash_commands',
      payload: buildSlashCommand().data,
      acceptsResponsePayload: false,
    });
    expect((await h.fake.waitForAck(envelope.envelope_id)).payload).toEqual({});
    expect(h.notices('ack_payload_dropped')).toMatchObject([
      { detail: { envelopeId: envelope.envelope_id, envelopeType: 'slash_commands' } },
    ]);
  });
});
