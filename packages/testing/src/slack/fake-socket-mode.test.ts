import { type Logger, LogLevel, SocketModeClient } from '@slack/socket-mode';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeSocketMode, startFakeSocketMode } from './fake-socket-mode.js';
import { buildMessageEvent, buildSlashCommand, buildViewSubmission } from './index.js';

/** A logger that keeps the library's output out of the test report. */
const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

interface Received {
  readonly type: string;
  readonly envelopeId: string;
  readonly body: Record<string, unknown>;
  readonly retryNum: number | undefined;
  ack(payload?: Record<string, unknown>): Promise<void>;
}

/** A real Socket Mode client against the fake, recording what it receives. */
function clientOf(fake: FakeSocketMode) {
  const client = new SocketModeClient({
    appToken: 'xapp-1-test',
    logger: silent,
    autoReconnectEnabled: false,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });
  const received: Received[] = [];
  client.on('slack_event', (event) => {
    received.push({
      type: event.type,
      envelopeId: event.envelope_id,
      body: event.body,
      retryNum: event.retry_num,
      ack: event.ack,
    });
  });
  clients.push(client);
  return { client, received };
}

let fake: FakeSocketMode;
const clients: SocketModeClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
  await fake.close();
});

describe('the fake Socket Mode server', () => {
  it('hands out a ws:// URL from apps.connections.open and greets the connection with hello', async () => {
    fake = await startFakeSocketMode();
    const { client } = clientOf(fake);
    await client.start();
    expect(fake.connectionsOpenCalls).toBe(1);
    const connection = await fake.waitForConnection(1);
    expect(connection.open).toBe(true);
    expect(fake.openConnections()).toEqual([connection]);
  });

  it('refuses an app token that is not one', async () => {
    fake = await startFakeSocketMode();
    const client = new SocketModeClient({
      appToken: 'xoxb-not-an-app-token',
      logger: silent,
      autoReconnectEnabled: false,
      clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
    });
    await expect(client.start()).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
    expect(fake.connections).toEqual([]);
  });

  it('sends every envelope type and records each ack with its payload', async () => {
    fake = await startFakeSocketMode();
    const { client, received } = clientOf(fake);
    await client.start();
    const event = fake.send(buildMessageEvent({ text: 'hi' }));
    const slash = fake.send(buildSlashCommand({ command: '/deploy' }));
    const view = fake.send(buildViewSubmission());
    expect([event.type, slash.type, view.type]).toEqual([
      'events_api',
      'slash_commands',
      'interactive',
    ]);
    expect([
      event.accepts_response_payload,
      slash.accepts_response_payload,
      view.accepts_response_payload,
    ]).toEqual([false, true, true]);
    await vi.waitFor(() => expect(received.length).toBe(3));
    await received[0]!.ack();
    await received[1]!.ack({ response_type: 'ephemeral', text: 'deploying' });
    await received[2]!.ack({ response_action: 'clear' });
    await fake.waitFor(() => (fake.acks.length === 3 ? true : undefined));
    expect(fake.acks.map((ack) => [ack.envelopeId, ack.payload])).toEqual([
      [event.envelope_id, {}],
      [slash.envelope_id, { response_type: 'ephemeral', text: 'deploying' }],
      [view.envelope_id, { response_action: 'clear' }],
    ]);
    expect(fake.acks[1]!.envelope).toBe(slash);
    expect(received[1]!.body).toMatchObject({ command: '/deploy' });
  });

  it('redelivers an unacknowledged event with a new envelope id, the same event_id and retry_attempt 1', async () => {
    fake = await startFakeSocketMode({ redeliverAfterMs: false });
    const { client, received } = clientOf(fake);
    await client.start();
    const first = fake.send(buildMessageEvent({ eventId: 'EvRETRY' }));
    await vi.waitFor(() => expect(received.length).toBe(1));
    fake.redeliverUnacked();
    await vi.waitFor(() => expect(received.length).toBe(2));
    const retry = received[1]!;
    expect(retry.envelopeId).not.toBe(first.envelope_id);
    expect(retry.body.event_id).toBe('EvRETRY');
    expect(retry.retryNum).toBe(1);
    await retry.ack();
    await fake.waitForAck(retry.envelopeId);
    expect(fake.redeliverUnacked()).toEqual([]);
    expect(fake.deliveriesOf('EvRETRY').map((e) => [e.retry_attempt, e.retry_reason])).toEqual([
      [0, ''],
      [1, 'timeout'],
    ]);
  });

  it('redelivers by itself once redeliverAfterMs passes without an ack', async () => {
    fake = await startFakeSocketMode({ redeliverAfterMs: 20 });
    const { client, received } = clientOf(fake);
    await client.start();
    fake.send(buildMessageEvent({ eventId: 'EvTIMER' }));
    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(2));
    expect(received.slice(0, 2).map((r) => [r.body.event_id, r.retryNum])).toEqual([
      ['EvTIMER', 0],
      ['EvTIMER', 1],
    ]);
  });

  it('waits per attempt as a redeliverAfterMs list says, and gives up after the last retry', async () => {
    fake = await startFakeSocketMode({ redeliverAfterMs: [10, 20, 30] });
    const { client, received } = clientOf(fake);
    await client.start();
    fake.send(buildMessageEvent({ eventId: 'EvLIST' }));
    await fake.waitFor(() => (fake.expired.length === 1 ? true : undefined));
    await vi.waitFor(() => expect(received).toHaveLength(4));
    expect(received.map((r) => r.retryNum)).toEqual([0, 1, 2, 3]);
    expect(fake.deliveriesOf('EvLIST')).toHaveLength(4);
  });

  it('gives up on an event after three unacknowledged redeliveries', async () => {
    fake = await startFakeSocketMode({ redeliverAfterMs: false });
    const { client } = clientOf(fake);
    await client.start();
    fake.send(buildMessageEvent({ eventId: 'EvLOST' }));
    for (let round = 0; round < 3; round += 1) expect(fake.redeliverUnacked()).toHaveLength(1);
    expect(fake.redeliverUnacked()).toEqual([]);
    expect(fake.deliveriesOf('EvLOST').map((e) => e.retry_attempt)).toEqual([0, 1, 2, 3]);
    expect(fake.expired.map((e) => e.payload.event_id)).toEqual(['EvLOST']);
  });

  it('redelivers to another live connection, and holds a redelivery until one is open', async () => {
    fake = await startFakeSocketMode({ redeliverAfterMs: false });
    const one = clientOf(fake);
    await one.client.start();
    const two = clientOf(fake);
    await two.client.start();
    const [first, second] = [await fake.waitForConnection(1), await fake.waitForConnection(2)];
    fake.send(buildMessageEvent({ eventId: 'EvMOVE' }), { to: first });
    const [moved] = fake.redeliverUnacked();
    expect(second.sent).toEqual([moved]);
    await two.client.disconnect();
    await one.client.disconnect();
    expect(fake.redeliverUnacked()).toEqual([]);
    const three = clientOf(fake);
    await three.client.start();
    await vi.waitFor(() => expect(three.received.length).toBe(1));
    expect(three.received[0]).toMatchObject({ retryNum: 2, body: { event_id: 'EvMOVE' } });
  });

  it('sends disconnect frames the client answers by closing its socket', async () => {
    fake = await startFakeSocketMode();
    const { client } = clientOf(fake);
    await client.start();
    const connection = await fake.waitForConnection(1);
    const disconnected = new Promise((resolve) => client.once('disconnected', resolve));
    fake.disconnect('refresh_requested');
    expect(await connection.closed).toMatchObject({ by: 'client', code: 1000 });
    await disconnected;
  });

  it('drops a socket without a close frame', async () => {
    fake = await startFakeSocketMode();
    const { client } = clientOf(fake);
    await client.start();
    const disconnected = new Promise((resolve) => client.once('disconnected', resolve));
    fake.drop();
    expect(await (await fake.waitForConnection(1)).closed).toMatchObject({ by: 'server' });
    await disconnected;
    expect(() => fake.send(buildMessageEvent())).toThrow(/no open connection/);
  });

  it('fails apps.connections.open as often as told, then answers again', async () => {
    fake = await startFakeSocketMode();
    fake.failConnectionsOpen(2, { status: 500 });
    const { client } = clientOf(fake);
    await expect(client.start()).rejects.toThrow();
    await expect(client.start()).rejects.toThrow();
    await client.start();
    expect(fake.connectionsOpenCalls).toBe(3);
    expect(fake.connections).toHaveLength(1);
  });
});
