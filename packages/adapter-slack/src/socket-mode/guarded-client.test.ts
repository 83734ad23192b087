import { Socket } from 'node:net';
import { startFakeSocketMode } from '@rt/testing/slack';
import { ErrorCode } from '@slack/socket-mode';
import { describe, expect, it } from 'vitest';
import {
  type EnvelopeAck,
  type FrameWatcher,
  GuardedSocketModeClient,
  type SocketEnvelope,
} from './guarded-client.js';
import { loggerBridge } from './logger-bridge.js';

/** The guarded client fed frames directly (no socket), with what it reports and logs recorded. */
function probe(onEnvelope?: FrameWatcher['onEnvelope']) {
  const envelopes: { envelope: SocketEnvelope; ack: EnvelopeAck }[] = [];
  const unreadable: string[] = [];
  const disconnects: string[] = [];
  const handlerErrors: unknown[] = [];
  const logLines: string[] = [];
  const emitted: string[] = [];
  class Probe extends GuardedSocketModeClient {
    feed(text: string): Promise<void> {
      return this.onWebSocketMessage(text, false);
    }
  }
  const client = new Probe(
    {
      appToken: 'xapp-1-test',
      autoReconnectEnabled: false,
      logger: loggerBridge('debug', (_level, message) => logLines.push(message)),
    },
    {
      onEnvelope: onEnvelope ?? ((envelope, ack) => envelopes.push({ envelope, ack })),
      onUnreadable: (reason) => unreadable.push(reason),
      onDisconnectFrame: (reason) => disconnects.push(reason),
      onHandlerError: (error) => handlerErrors.push(error),
    },
  );
  for (const name of ['slack_event', 'events_api', 'app_mention', 'connected', 'rt_envelope']) {
    client.on(name, () => emitted.push(name));
  }
  return { client, envelopes, unreadable, disconnects, handlerErrors, logLines, emitted };
}

const MENTION = {
  envelope_id: 'env-1',
  type: 'events_api',
  accepts_response_payload: false,
  retry_attempt: 2,
  retry_reason: 'timeout',
  payload: {
    type: 'event_callback',
    event_id: 'Ev1',
    event: { type: 'app_mention', text: 'PAYLOAD-TEXT-ONLY-RT-READS' },
  },
};

describe('GuardedSocketModeClient', () => {
  it('hands an envelope on parsed once, with the library ack, and shows the library only its id', async () => {
    const p = probe();
    await p.client.feed(JSON.stringify(MENTION));
    expect(p.envelopes.map((e) => e.envelope)).toEqual([MENTION]);
    // Nothing is emitted for it: not the envelope type, not the inner event type, not slack_event.
    expect(p.emitted).toEqual([]);
    // The library read a frame carrying the id alone: its debug lines name the id, never the payload.
    const lines = p.logLines.join('\n');
    expect(lines).toContain('env-1');
    expect(lines).not.toContain('PAYLOAD-TEXT-ONLY-RT-READS');
    // The ack is the library's own: without a connection it refuses to send.
    await expect(p.envelopes[0]!.ack()).rejects.toMatchObject({
      code: ErrorCode.SendWhileDisconnectedError,
    });
    expect(p.handlerErrors).toEqual([]);
  });

  it('hands on envelopes of every type, and one without an id, each exactly once', async () => {
    const p = probe();
    const frames = [
      { envelope_id: 'env-2', type: 'slash_commands', payload: { command: '/rt' } },
      { envelope_id: 7, type: 'mystery', payload: {} },
      { type: 'events_api', payload: null },
    ];
    for (const frame of frames) await p.client.feed(JSON.stringify(frame));
    expect(p.envelopes.map((e) => e.envelope)).toEqual(frames);
    expect(p.emitted).toEqual([]);
  });

  it('reports frames that are not JSON objects and hands nothing on', async () => {
    const p = probe();
    for (const text of ['not json', 'null', '[1,2]', '"text"']) await p.client.feed(text);
    expect(p.unreadable).toEqual(['not JSON', ...Array(3).fill('not a JSON object')]);
    expect(p.envelopes).toEqual([]);
    expect(p.handlerErrors).toEqual([]);
  });

  it("leaves hello and disconnect to the library, reporting a disconnect's reason", async () => {
    const p = probe();
    await p.client.feed(JSON.stringify({ type: 'hello', num_connections: 1 }));
    expect(p.emitted).toEqual(['connected']);
    await p.client.feed(JSON.stringify({ type: 'disconnect', reason: 'refresh_requested' }));
    await p.client.feed(JSON.stringify({ type: 'disconnect' }));
    expect(p.disconnects).toEqual(['refresh_requested', 'unknown']);
    expect(p.envelopes).toEqual([]);
  });

  it('contains a watcher that throws: reported, and the next envelope still goes through', async () => {
    const seen: unknown[] = [];
    const p = probe((envelope) => {
      seen.push(envelope.envelope_id);
      if (seen.length === 1) throw new Error('boom');
    });
    await p.client.feed(JSON.stringify({ ...MENTION, envelope_id: 'env-a' }));
    await p.client.feed(JSON.stringify({ ...MENTION, envelope_id: 'env-b' }));
    expect(seen).toEqual(['env-a', 'env-b']);
    expect(p.handlerErrors).toMatchObject([{ message: 'boom' }]);
    // Emits after a failed envelope are the library's own again.
    await p.client.feed(JSON.stringify({ type: 'hello' }));
    expect(p.emitted).toEqual(['connected']);
  });

  it('reaches the socket under the open WebSocket, which its acks are batched on, and none once closed', async () => {
    const fake = await startFakeSocketMode({ redeliverAfterMs: false });
    const handlerErrors: unknown[] = [];
    const client = new GuardedSocketModeClient(
      {
        appToken: 'xapp-1-test',
        autoReconnectEnabled: false,
        logger: loggerBridge('error', () => {}),
        clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
      },
      {
        onEnvelope: () => {},
        onUnreadable: () => {},
        onDisconnectFrame: () => {},
        onHandlerError: (error) => handlerErrors.push(error),
      },
    );
    try {
      expect(client.rawSocket).toBeUndefined();
      await client.start();
      const socket = client.rawSocket;
      expect(socket).toBeInstanceOf(Socket);
      expect(socket?.destroyed).toBe(false);
      expect(socket?.remotePort).toBe(Number(new URL(fake.apiUrl).port));
      await client.disconnect();
      expect(client.rawSocket).toBeUndefined();
      expect(handlerErrors).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});
