import type { RtEvent } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { deferred, stateWith } from '@rt/testing';
import { buildMessageEvent, startFakeSocketMode } from '@rt/testing/slack';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SocketHarness, startSocketHarness } from '../test-support/socket-harness.js';

describe('Socket Mode reconnects, with the real client against the fake', () => {
  let h: SocketHarness;
  let handled: RtEvent[];
  afterEach(async () => {
    await h.close();
  });

  async function start(options: Parameters<typeof startSocketHarness>[0] = {}): Promise<void> {
    h = await startSocketHarness(options);
    handled = [];
    h.runtime.onMessage((ctx) => {
      handled.push(ctx.event);
    });
  }

  /** Sends an event on the newest connection and waits until it was handled. */
  async function roundTrip(eventId: string): Promise<void> {
    const envelope = h.fake.send(buildMessageEvent({ eventId }));
    await h.fake.waitForAck(envelope.envelope_id);
    await vi.waitFor(() => expect(handled.map((e) => e.id)).toContain(eventId));
  }

  function expectHandledOnce(ids: readonly string[]): void {
    expect(handled.map((e) => e.id)).toEqual(ids);
  }

  it('reconnects at once after a refresh_requested disconnect frame and keeps handling', async () => {
    await start();
    await roundTrip('EvBEFORE');
    const first = await h.fake.waitForConnection(1);
    h.fake.disconnect('refresh_requested', first);
    expect((await first.closed).by).toBe('client');
    await h.fake.waitForConnection(2);
    await roundTrip('EvAFTER');
    expectHandledOnce(['EvBEFORE', 'EvAFTER']);
    expect(h.notices('socket_closed')).toMatchObject([
      { detail: { reason: 'refresh_requested', reconnectInMs: 0 } },
    ]);
    expect(h.notices('socket_connected').map((n) => n.detail?.connection)).toEqual([1, 2]);
  });

  it('reconnects at once after a warning frame, and with backoff after link_disabled', async () => {
    await start();
    h.fake.disconnect('warning');
    await h.fake.waitForConnection(2);
    h.fake.disconnect('link_disabled');
    await h.fake.waitForConnection(3);
    await roundTrip('EvAFTER');
    const closed = h.notices('socket_closed').map((n) => n.detail);
    expect(closed).toMatchObject([
      { reason: 'warning', reconnectInMs: 0 },
      { reason: 'link_disabled' },
    ]);
    expect(closed[1]?.reconnectInMs).toBeGreaterThan(0);
  });

  it('keeps retrying a token Slack refuses after the first connection, instead of giving up', async () => {
    await start();
    h.fake.failConnectionsOpen(2, { error: 'invalid_auth' });
    h.fake.drop();
    await h.fake.waitForConnection(2);
    expect(h.notices('socket_connect_failed')).toHaveLength(2);
    await roundTrip('EvAFTER');
  });

  it('reconnects with backoff after a dropped socket, and work acknowledged before it completes', async () => {
    await start();
    const hold = deferred();
    h.runtime.onEvent('reaction_added', () => hold.promise);
    const release = h.fake.send({
      type: 'events_api',
      payload: {
        ...buildMessageEvent({ eventId: 'EvHELD' }).data,
        event: { type: 'reaction_added', user: 'U1', reaction: 'eyes', item: {} },
      },
    });
    await h.fake.waitForAck(release.envelope_id);
    h.fake.drop();
    await h.fake.waitForConnection(2);
    hold.resolve();
    await h.observed(
      (o) => o.type === 'dispatch_finished' && o.event.id === 'EvHELD' && o.outcome === 'completed',
    );
    await roundTrip('EvAFTER');
    expectHandledOnce(['EvAFTER']);
    const [closed] = h.notices('socket_closed');
    expect(closed?.detail).toMatchObject({ reason: 'socket closed' });
    expect(closed?.detail?.reconnectInMs).toBeGreaterThan(0);
  });

  it('keeps trying while apps.connections.open fails twice, then handles later envelopes once', async () => {
    await start();
    await roundTrip('EvBEFORE');
    h.fake.failConnectionsOpen(2, { status: 500 });
    h.fake.drop();
    await h.fake.waitForConnection(2);
    expect(h.notices('socket_connect_failed').map((n) => n.detail?.attempt)).toEqual([2, 3]);
    await roundTrip('EvAFTER');
    expectHandledOnce(['EvBEFORE', 'EvAFTER']);
    expect(h.fake.connectionsOpenCalls).toBe(4);
  });

  it('starts through two failed apps.connections.open calls', async () => {
    const fake = await startFakeSocketMode({ redeliverAfterMs: false });
    fake.failConnectionsOpen(2, { error: 'internal_error' });
    try {
      await start({ fake });
      expect(h.notices('socket_connect_failed')).toHaveLength(2);
      await roundTrip('EvFIRST');
      expectHandledOnce(['EvFIRST']);
    } finally {
      await h.close();
      await fake.close();
    }
  });

  it('rejects runtime.start() with SlackSocketModeError when Slack refuses the app token', async () => {
    const fake = await startFakeSocketMode({ appToken: 'xapp-the-right-one' });
    try {
      await start({ fake, start: false });
      await expect(h.runtime.start()).rejects.toMatchObject({
        code: 'RT_SLACK_SOCKET_MODE',
        message: expect.stringContaining('invalid_auth'),
      });
      expect(fake.connectionsOpenCalls).toBe(1);
      expect(fake.connections).toEqual([]);
    } finally {
      await h.close();
      await fake.close();
    }
  });

  it('reports an accepted event whose socket was gone when its ack was due; its redelivery is a duplicate', async () => {
    const gate = deferred();
    let slowMarks = true;
    const state = stateWith(createMemoryState(), (inner) => ({
      markEvent: async (key, ttlMs) => {
        if (slowMarks) await gate.promise;
        return inner.markEvent(key, ttlMs);
      },
    }));
    await start({ state });
    h.fake.send(buildMessageEvent({ eventId: 'EvORPHAN' }));
    await vi.waitFor(() => expect(h.runtime.stats().received).toBe(1));
    h.fake.drop();
    await h.fake.waitForConnection(2);
    slowMarks = false;
    gate.resolve();
    await h.observed((o) => o.type === 'adapter_notice' && o.name === 'ack_failed');
    expect(h.notices('ack_failed')).toMatchObject([
      { detail: { envelopeType: 'events_api', eventId: 'EvORPHAN' } },
    ]);
    await vi.waitFor(() => expectHandledOnce(['EvORPHAN']));
    // Slack redelivers the unacked envelope; it meets the mark and is acked as a duplicate.
    const [redelivery] = h.fake.redeliverUnacked();
    expect((await h.fake.waitForAck(redelivery!.envelope_id)).payload).toEqual({});
    await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'duplicate');
    expectHandledOnce(['EvORPHAN']);
    await state.close();
  });

  it("bridges the client library's own log lines to socket_mode_log notices at the chosen level", async () => {
    await start({ socketMode: { logLevel: 'debug' } });
    await roundTrip('EvLOGGED');
    const lines = h.notices('socket_mode_log');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((n) => typeof n.detail?.message === 'string')).toBe(true);
    expect(lines.map((n) => n.detail?.level)).toContain('debug');
  });
});
