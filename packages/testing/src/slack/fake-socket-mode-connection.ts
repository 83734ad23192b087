import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { FakeEnvelope } from './fake-socket-mode-envelopes.js';

/** How a fake connection ended. */
export interface FakeSocketClose {
  readonly code: number;
  readonly reason: string;
  /** `client`: the client closed it (a close frame); `server`: the fake dropped or closed it. */
  readonly by: 'client' | 'server';
}

/** One WebSocket connection a client opened to the fake. */
export interface FakeSocketConnection {
  /** 1 for the first connection the fake accepted, then 2, 3, ... */
  readonly id: number;
  /** True while the socket is open (the fake can still send on it). */
  readonly open: boolean;
  /** Envelopes sent on this connection, in order (redeliveries included). */
  readonly sent: readonly FakeEnvelope[];
  /** Resolves once the connection has closed. Never rejects. */
  readonly closed: Promise<FakeSocketClose>;
  /** Set once closed. */
  readonly closedWith: FakeSocketClose | undefined;
}

/** The fake's own view of a connection: what it needs to send, drop and track it. */
export class ServerConnection implements FakeSocketConnection {
  readonly id: number;
  readonly sent: FakeEnvelope[] = [];
  readonly closed: Promise<FakeSocketClose>;
  closedWith: FakeSocketClose | undefined;
  readonly #socket: WebSocket;
  readonly #transport: Duplex;
  #closingByServer = false;

  constructor(
    id: number,
    socket: WebSocket,
    transport: Duplex,
    onClose: (connection: ServerConnection) => void,
  ) {
    this.id = id;
    this.#socket = socket;
    this.#transport = transport;
    this.closed = new Promise((resolve) => {
      socket.once('close', (code: number, reason: Buffer) => {
        this.closedWith = {
          code,
          reason: reason.toString('utf8'),
          by: this.#closingByServer ? 'server' : 'client',
        };
        onClose(this);
        resolve(this.closedWith);
      });
    });
  }

  get open(): boolean {
    return this.#socket.readyState === this.#socket.OPEN;
  }

  /** Sends a JSON frame; false when the socket is no longer open (nothing was sent). */
  sendFrame(frame: unknown): boolean {
    if (!this.open) return false;
    this.#socket.send(JSON.stringify(frame));
    return true;
  }

  /** Sends an envelope and records it; false when the socket is no longer open. */
  sendEnvelope(envelope: FakeEnvelope): boolean {
    if (!this.sendFrame(envelope)) return false;
    this.sent.push(envelope);
    return true;
  }

  /**
   * Stops reading from the socket: the client's frames (acks, its close frame) go unread, so a
   * close handshake the client starts never completes. `drop()` or `close()` still end it.
   */
  stall(): void {
    this.#transport.pause();
  }

  /** Destroys the TCP connection without a close frame (a dropped socket). */
  drop(): void {
    this.#closingByServer = true;
    this.#socket.terminate();
  }
}
