import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { ChangeWaiters, startLoopbackHttp } from '../support/loopback-http.js';
import { defaultGuilds, type FakeGatewayGuild, guildCreate } from './fake-gateway-guilds.js';
import { DISCORD_TEST_IDS } from './payloads.js';

/** Options of `startFakeDiscordGateway`. */
export interface FakeDiscordGatewayOptions {
  /** Bot tokens IDENTIFY and RESUME may carry; others are closed with 4004. Default: any. */
  readonly tokens?: readonly string[];
  /** The bot user READY reports. Default id `DISCORD_TEST_IDS.applicationId`, username `fake-bot`. */
  readonly botUser?: { readonly id: string; readonly username?: string };
  /** The application id READY reports. Default `DISCORD_TEST_IDS.applicationId`. */
  readonly applicationId?: string;
  /** Guilds of the session. Default: the test guild with a text channel and a public thread. */
  readonly guilds?: readonly FakeGatewayGuild[];
  /** `heartbeat_interval` sent in HELLO. Default 1000 (heartbeats are ACKed with op 11). */
  readonly heartbeatIntervalMs?: number;
  /**
   * On RESUME, also replay this many events the client already acknowledged (by sequence):
   * Discord's replay is at-least-once at the edges, so a client must dedupe. Default 0.
   */
  readonly resumeReplayOverlap?: number;
}

/** What the fake saw on its connections, in arrival order. */
export type FakeGatewayEvent =
  | { readonly type: 'connect' }
  | { readonly type: 'identify'; readonly intents: number; readonly token: string }
  | { readonly type: 'resume'; readonly sessionId: string; readonly seq: number }
  | { readonly type: 'heartbeat'; readonly seq: number | null }
  /** The connection closed: `code` as the close frame said (1005 none, 1006 dropped), `byClient`. */
  | { readonly type: 'close'; readonly code: number; readonly byClient: boolean };

/** A running fake Discord gateway (API v10, JSON encoding, one shard). */
export interface FakeDiscordGateway {
  /** The `ws://127.0.0.1:<port>` URL for `GET /gateway/bot` (and READY's `resume_gateway_url`). */
  readonly url: string;
  /** Everything seen so far. */
  readonly events: readonly FakeGatewayEvent[];
  /** True while a client connection is identified or resumed and open. */
  readonly connected: boolean;
  /**
   * Sends a dispatch (`MESSAGE_CREATE`, `INTERACTION_CREATE`, ...) on the current session with the
   * next sequence number; returns that number. While the client is disconnected it is kept and
   * delivered when the client resumes (or dropped if it identifies anew). Throws before any
   * IDENTIFY.
   */
  dispatch(t: string, d: unknown): number;
  /**
   * Closes the client's connection with a resumable close code (default 4000, unknown error), as
   * Discord does on a restart; the client reconnects and RESUMEs.
   */
  dropConnection(code?: number): void;
  /** Refuses new connections (HTTP 503 on the upgrade) until `comeBack()`; drops the current one. */
  goDown(): void;
  /** Accepts connections again after `goDown()`. */
  comeBack(): void;
  /** Resolves once `count` events of `type` were seen; rejects after `timeoutMs` (5000). */
  waitFor(
    type: FakeGatewayEvent['type'],
    count?: number,
    timeoutMs?: number,
  ): Promise<FakeGatewayEvent[]>;
  /** Resolves once a client is identified (READY sent) or resumed and connected; rejects after `timeoutMs` (5000). */
  waitForSession(timeoutMs?: number): Promise<void>;
  /** Stops the server and drops open connections. Idempotent. */
  close(): Promise<void>;
}

interface Stored {
  readonly s: number;
  readonly t: string;
  readonly d: unknown;
}

interface Session {
  readonly id: string;
  seq: number;
  readonly events: Stored[];
  socket: WebSocket | undefined;
}

/**
 * Starts a fake Discord gateway on 127.0.0.1, port 0, that the real `discord.js` Client connects to
 * once `GET /gateway/bot` points at it (`startFakeDiscordRest({ gatewayUrl })`, or
 * `startFakeDiscord()` for both). It speaks the v10 JSON protocol: HELLO, IDENTIFY → READY (listing
 * the guilds) and one GUILD_CREATE per guild, heartbeats ACKed, dispatches with sequence numbers,
 * RESUME replaying what the client missed (then RESUMED), an unknown session answered with
 * INVALID_SESSION. It records connections, identifies, resumes, heartbeats and close codes.
 */
export async function startFakeDiscordGateway(
  options: FakeDiscordGatewayOptions = {},
): Promise<FakeDiscordGateway> {
  const events: FakeGatewayEvent[] = [];
  const waiters = new ChangeWaiters('fake Discord gateway');
  const sessions = new Map<string, Session>();
  const sockets = new Set<WebSocket>();
  const botUser = {
    id: options.botUser?.id ?? DISCORD_TEST_IDS.applicationId,
    username: options.botUser?.username ?? 'fake-bot',
    discriminator: '0',
    global_name: null,
    avatar: null,
    bot: true,
  };
  const applicationId = options.applicationId ?? DISCORD_TEST_IDS.applicationId;
  const guilds = options.guilds ?? defaultGuilds();
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 1000;
  const overlap = options.resumeReplayOverlap ?? 0;
  let current: Session | undefined;
  let down = false;
  let sessionCount = 0;

  const record = (event: FakeGatewayEvent) => {
    events.push(event);
    waiters.changed();
  };
  const send = (socket: WebSocket, payload: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
  };
  const sendDispatch = (session: Session, stored: Stored) => {
    if (session.socket !== undefined) {
      send(session.socket, { op: 0, s: stored.s, t: stored.t, d: stored.d });
    }
  };
  const store = (session: Session, t: string, d: unknown): Stored => {
    session.seq += 1;
    const stored = { s: session.seq, t, d };
    session.events.push(stored);
    return stored;
  };
  const tokenAllowed = (token: unknown) =>
    typeof token === 'string' &&
    token.length > 0 &&
    (options.tokens === undefined || options.tokens.includes(token));

  const onIdentify = (socket: WebSocket, d: Record<string, unknown>) => {
    const token = String(d.token ?? '').replace(/^Bot /, '');
    if (!tokenAllowed(token)) {
      socket.close(4004, 'Authentication failed');
      return;
    }
    record({ type: 'identify', intents: Number(d.intents ?? 0), token });
    sessionCount += 1;
    const session: Session = { id: `fake-session-${sessionCount}`, seq: 0, events: [], socket };
    if (current?.socket !== undefined && current.socket !== socket) current.socket.terminate();
    sessions.set(session.id, session);
    current = session;
    sendDispatch(
      session,
      store(session, 'READY', {
        v: 10,
        user: botUser,
        guilds: guilds.map((guild) => ({ id: guild.id, unavailable: true })),
        session_id: session.id,
        resume_gateway_url: url,
        shard: [0, 1],
        application: { id: applicationId, flags: 0 },
        user_settings: {},
        private_channels: [],
        relationships: [],
      }),
    );
    for (const guild of guilds)
      sendDispatch(session, store(session, 'GUILD_CREATE', guildCreate(guild)));
  };

  const onResume = (socket: WebSocket, d: Record<string, unknown>) => {
    const session = sessions.get(String(d.session_id));
    if (session === undefined || !tokenAllowed(String(d.token ?? '').replace(/^Bot /, ''))) {
      send(socket, { op: 9, d: false });
      return;
    }
    const seq = Number(d.seq ?? 0);
    record({ type: 'resume', sessionId: session.id, seq });
    session.socket = socket;
    current = session;
    const from = Math.max(0, seq - overlap);
    for (const stored of session.events.filter((e) => e.s > from)) sendDispatch(session, stored);
    sendDispatch(session, store(session, 'RESUMED', {}));
  };

  const onMessage = (socket: WebSocket, raw: RawData) => {
    let payload: { op?: unknown; d?: unknown };
    try {
      payload = JSON.parse(raw.toString()) as { op?: unknown; d?: unknown };
    } catch {
      socket.close(4002, 'Decode error');
      return;
    }
    const d = (payload.d ?? {}) as Record<string, unknown>;
    switch (payload.op) {
      case 1:
        record({ type: 'heartbeat', seq: typeof payload.d === 'number' ? payload.d : null });
        send(socket, { op: 11 });
        return;
      case 2:
        onIdentify(socket, d);
        return;
      case 6:
        onResume(socket, d);
        return;
      case 3:
      case 4:
      case 8:
        return;
      default:
        socket.close(4001, 'Unknown opcode');
    }
  };

  const wss = new WebSocketServer({ noServer: true });
  const http = await startLoopbackHttp(
    (_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain' });
      res.end('Upgrade Required');
    },
    {
      beforeClose: () => {
        for (const ws of sockets) ws.terminate();
        wss.close();
      },
    },
  );
  http.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (down) {
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      record({ type: 'connect' });
      ws.on('message', (data) => onMessage(ws, data));
      ws.on('close', (code) => {
        sockets.delete(ws);
        const byClient = !(ws as WebSocket & { rtClosedByServer?: boolean }).rtClosedByServer;
        for (const session of sessions.values()) {
          if (session.socket === ws) session.socket = undefined;
        }
        record({ type: 'close', code, byClient });
      });
      ws.on('error', () => {
        // A client that vanishes mid-frame surfaces as a close.
      });
      send(ws, { op: 10, d: { heartbeat_interval: heartbeatIntervalMs } });
    });
  });
  const url = `ws://127.0.0.1:${http.port}`;

  const closeByServer = (ws: WebSocket, code: number) => {
    (ws as WebSocket & { rtClosedByServer?: boolean }).rtClosedByServer = true;
    ws.close(code, 'fake gateway dropped the connection');
  };

  const waitUntil = (check: () => boolean, timeoutMs: number, what: () => string) =>
    waiters.until(() => (check() ? true : undefined), timeoutMs, what).then(() => undefined);

  return {
    url,
    events,
    get connected() {
      return current?.socket !== undefined && current.socket.readyState === current.socket.OPEN;
    },
    dispatch(t, d) {
      if (current === undefined) throw new Error('fake Discord gateway: no session yet');
      const stored = store(current, t, d);
      sendDispatch(current, stored);
      return stored.s;
    },
    dropConnection(code = 4000) {
      for (const ws of sockets) closeByServer(ws, code);
    },
    goDown() {
      down = true;
      for (const ws of sockets) closeByServer(ws, 4000);
    },
    comeBack() {
      down = false;
    },
    async waitFor(type, count = 1, timeoutMs = 5000) {
      const matching = () => events.filter((event) => event.type === type);
      await waitUntil(
        () => matching().length >= count,
        timeoutMs,
        () => `saw ${matching().length} of ${count} ${type} events`,
      );
      return matching();
    },
    waitForSession(timeoutMs = 5000) {
      return waitUntil(
        () => current?.socket !== undefined && current.socket.readyState === current.socket.OPEN,
        timeoutMs,
        () => 'no client identified or resumed',
      );
    },
    close: () => http.close(),
  };
}
