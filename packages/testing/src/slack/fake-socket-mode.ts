import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebSocketServer } from 'ws';
import { ChangeWaiters, startLoopbackHttp } from '../support/loopback-http.js';
import { type FakeSocketConnection, ServerConnection } from './fake-socket-mode-connection.js';
import {
  envelopeInputOf,
  envelopeOf,
  eventIdOf,
  type FakeEnvelope,
  type FakeEnvelopeInput,
  parseAck,
} from './fake-socket-mode-envelopes.js';
import type {
  FakeSocketAck,
  FakeSocketMode,
  FakeSocketModeOptions,
} from './fake-socket-mode-types.js';

export type {
  FakeConnectionsOpenFailure,
  FakeDisconnectReason,
  FakeSendOptions,
  FakeSocketAck,
  FakeSocketMode,
  FakeSocketModeOptions,
} from './fake-socket-mode-types.js';

/** An `events_api` envelope waiting for its ack. */
interface Unacked {
  readonly input: FakeEnvelopeInput;
  readonly envelope: FakeEnvelope;
  readonly connection: ServerConnection;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Starts a fake Slack Socket Mode on 127.0.0.1, port 0: `POST /api/apps.connections.open` (Bearer
 * app token) answers `{ ok: true, url: "ws://127.0.0.1:PORT/link/?ticket=..." }` (single-use
 * tickets); the WebSocket server greets each connection with `hello`, sends envelopes, records
 * acks with their payloads, sends `disconnect` frames, drops sockets, and redelivers
 * unacknowledged `events_api` envelopes like Slack (new envelope id, same `event_id`,
 * `retry_attempt` 1..3) to whichever connection is live. Use it with the real
 * `@slack/socket-mode` client: `clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } }`.
 */
export async function startFakeSocketMode(
  options: FakeSocketModeOptions = {},
): Promise<FakeSocketMode> {
  const redeliverAfterMs = options.redeliverAfterMs ?? 3000;
  const maxRetries = options.maxRetries ?? 3;
  const connections: ServerConnection[] = [];
  const acks: FakeSocketAck[] = [];
  const sent: FakeEnvelope[] = [];
  const expired: FakeEnvelope[] = [];
  const byEnvelopeId = new Map<string, FakeEnvelope>();
  const unacked = new Map<string, Unacked>();
  /** Redeliveries waiting for a live connection. */
  const waitingForConnection: Unacked[] = [];
  const tickets = new Set<string>();
  const waiters = new ChangeWaiters('fake Socket Mode');
  let openFailures = { remaining: 0, status: 200, error: 'internal_error' };
  let connectionsOpenCalls = 0;
  let closing = false;

  const changed = () => waiters.changed();
  const open = () => connections.filter((connection) => connection.open);

  const sendOn = (
    connection: ServerConnection,
    input: FakeEnvelopeInput,
    envelope: FakeEnvelope,
  ) => {
    if (!connection.sendEnvelope(envelope)) return false;
    sent.push(envelope);
    byEnvelopeId.set(envelope.envelope_id, envelope);
    if (envelope.type === 'events_api') {
      const entry: Unacked = { input, envelope, connection, timer: undefined };
      unacked.set(envelope.envelope_id, entry);
      if (redeliverAfterMs !== false) {
        const attempt = envelope.retry_attempt ?? 0;
        const waitMs =
          typeof redeliverAfterMs === 'number'
            ? redeliverAfterMs
            : (redeliverAfterMs[Math.min(attempt, redeliverAfterMs.length - 1)] ?? 3000);
        entry.timer = setTimeout(() => redeliver(entry), waitMs);
        entry.timer.unref();
      }
    }
    changed();
    return true;
  };

  /** Sends the next attempt of `entry` to a live connection; false when none is open. */
  const resend = (entry: Unacked): boolean => {
    const live = open();
    const target = live.reverse().find((c) => c !== entry.connection) ?? live[0];
    if (target === undefined) return false;
    const attempt = (entry.envelope.retry_attempt ?? 0) + 1;
    return sendOn(target, entry.input, envelopeOf(entry.input, { attempt, reason: 'timeout' }));
  };

  const redeliver = (entry: Unacked): FakeEnvelope | undefined => {
    if (closing || !unacked.delete(entry.envelope.envelope_id)) return undefined;
    clearTimeout(entry.timer);
    if ((entry.envelope.retry_attempt ?? 0) >= maxRetries) {
      expired.push(entry.envelope);
      changed();
      return undefined;
    }
    if (!resend(entry)) {
      waitingForConnection.push(entry);
      return undefined;
    }
    return sent[sent.length - 1];
  };

  const onAck = (connection: ServerConnection, raw: string) => {
    const ack = parseAck(raw);
    if (ack === undefined) return;
    const pending = unacked.get(ack.envelopeId);
    if (pending !== undefined) {
      clearTimeout(pending.timer);
      unacked.delete(ack.envelopeId);
    }
    acks.push({ ...ack, connection: connection.id, envelope: byEnvelopeId.get(ack.envelopeId) });
    changed();
  };

  const handleHttp = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const send = (status: number, body: Record<string, unknown>) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'POST' || path !== '/api/apps.connections.open') {
      send(404, { ok: false, error: 'unknown_method' });
      return;
    }
    connectionsOpenCalls += 1;
    changed();
    if (openFailures.remaining > 0) {
      openFailures.remaining -= 1;
      send(openFailures.status, { ok: false, error: openFailures.error });
      return;
    }
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const valid =
      options.appToken === undefined ? token.startsWith('xapp-') : token === options.appToken;
    if (!valid) {
      send(200, { ok: false, error: token.length === 0 ? 'not_authed' : 'invalid_auth' });
      return;
    }
    const ticket = randomUUID();
    tickets.add(ticket);
    send(200, { ok: true, url: `ws://127.0.0.1:${port}/link/?ticket=${ticket}&app_id=A0APP` });
  };

  const wss = new WebSocketServer({ noServer: true });
  const http = await startLoopbackHttp(handleHttp, {
    beforeClose: () => {
      closing = true;
      for (const entry of unacked.values()) clearTimeout(entry.timer);
      for (const connection of connections) if (connection.open) connection.drop();
      wss.close();
    },
  });
  const { port } = http;
  http.server.on('upgrade', (req, socket, head) => {
    const ticket = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('ticket') ?? '';
    if (!tickets.delete(ticket) || closing) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new ServerConnection(connections.length + 1, ws, socket, changed);
      connections.push(connection);
      ws.on('message', (data, isBinary) => {
        if (!isBinary) onAck(connection, data.toString());
      });
      connection.sendFrame({
        type: 'hello',
        num_connections: open().length,
        debug_info: { host: 'fake-socket-mode', approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0APP' },
      });
      for (const entry of waitingForConnection.splice(0)) {
        if (!resend(entry)) waitingForConnection.push(entry);
      }
      changed();
    });
  });

  const newestOpen = (): ServerConnection => {
    const connection = open().at(-1);
    if (connection === undefined) throw new Error('fake Socket Mode: no open connection');
    return connection;
  };
  const own = (connection: FakeSocketConnection | undefined): ServerConnection => {
    if (connection === undefined) return newestOpen();
    const found = connections.find((c) => c === connection);
    if (found === undefined) throw new Error('fake Socket Mode: not one of its connections');
    return found;
  };

  const waitFor = <T>(check: () => T | undefined, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> =>
    waiters.until(check, timeoutMs, () => 'condition not met');

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    connections,
    acks,
    sent,
    expired,
    get connectionsOpenCalls() {
      return connectionsOpenCalls;
    },
    openConnections: open,
    send: (payload, sendOptions = {}) => {
      const target = own(sendOptions.to);
      const input = envelopeInputOf(payload);
      const envelope = envelopeOf(input);
      if (!sendOn(target, input, envelope)) {
        throw new Error(`fake Socket Mode: connection ${target.id} is not open`);
      }
      return envelope;
    },
    acksOf: (envelopeId) => acks.filter((ack) => ack.envelopeId === envelopeId),
    deliveriesOf: (eventId) => sent.filter((envelope) => eventIdOf(envelope) === eventId),
    disconnect: (reason, connection) => {
      own(connection).sendFrame({
        type: 'disconnect',
        reason,
        debug_info: { host: 'fake-socket-mode' },
      });
    },
    drop: (connection) => own(connection).drop(),
    stall: (connection) => own(connection).stall(),
    failConnectionsOpen: (times, failure = {}) => {
      openFailures = {
        remaining: times,
        status: failure.status ?? 200,
        error: failure.error ?? 'internal_error',
      };
    },
    redeliverUnacked: () =>
      [...unacked.values()].flatMap((entry) => {
        const next = redeliver(entry);
        return next === undefined ? [] : [next];
      }),
    waitForConnection: (count = 1, timeoutMs) => waitFor(() => connections[count - 1], timeoutMs),
    waitForAck: (envelopeId, timeoutMs) =>
      waitFor(() => acks.find((ack) => ack.envelopeId === envelopeId), timeoutMs),
    waitFor,
    close: () => http.close(),
  };
}
