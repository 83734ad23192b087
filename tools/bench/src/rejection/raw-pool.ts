/**
 * The raw-socket side of the rejection load generator: a pool of keep-alive `node:net`
 * connections to one server, each with at most one request in flight (no pipelining), sending
 * requests already serialised to one Buffer each. A request sent when every connection is busy
 * waits in the pool's line for the first free one, and that wait is part of its latency: the
 * pool never lowers the offered rate. A connection the server closes (`Connection: close`, or the
 * socket ending) is replaced before its next request; a request in flight on a connection that
 * fails counts as an error.
 */
import { connect, type Socket } from 'node:net';
import { nowMs } from './clock.js';
import { type ParsedResponse, ResponseParser } from './response-parser.js';

/** Serialises a POST of `body` with `headers` to `path` as one HTTP/1.1 request. */
export function serializeRequest(
  host: string,
  path: string,
  headers: Readonly<Record<string, string>>,
  body: string,
): Buffer {
  const payload = Buffer.from(body, 'utf8');
  let head = `POST ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  head += `content-length: ${payload.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/**
 * What happened to one request: its status and when its answer's first bytes (the status line)
 * arrived, on `clock.ts`'s `nowMs`; or status `0` with `error` set when it got no answer.
 */
export interface RawOutcome {
  readonly status: number;
  readonly answeredAt: number;
  readonly error?: Error;
}

interface Pending {
  readonly request: Buffer;
  readonly done: (outcome: RawOutcome) => void;
}

/** One connection of the pool and the request in flight on it. */
class Lane {
  #socket: Socket;
  #inFlight: Pending | undefined;
  /** When the first bytes of the in-flight request's answer arrived (-1: none yet). */
  #answerStartedAt = -1;
  #closing = false;
  /** Connections opened after the first (the server closed one). */
  reconnects = 0;

  constructor(
    readonly port: number,
    readonly host: string,
    readonly free: (lane: Lane) => void,
  ) {
    this.#socket = this.#open();
  }

  /** Sends `pending` on this (free) connection. */
  send(pending: Pending): void {
    this.#inFlight = pending;
    this.#answerStartedAt = -1;
    if (this.#socket.destroyed) {
      this.reconnects += 1;
      this.#socket = this.#open();
    }
    this.#socket.write(pending.request);
  }

  /** Closes the connection; a request still in flight ends with an error. */
  close(): void {
    this.#closing = true;
    this.#socket.destroy();
  }

  #open(): Socket {
    const socket = connect({ port: this.port, host: this.host, noDelay: true });
    const parser = new ResponseParser();
    socket.on('data', (chunk: Buffer) => {
      // One request in flight, no pipelining: any bytes now are the start of its answer.
      if (this.#answerStartedAt < 0) this.#answerStartedAt = nowMs();
      let responses: ParsedResponse[];
      try {
        responses = parser.push(chunk);
      } catch (error) {
        socket.destroy(error as Error);
        return;
      }
      for (const response of responses) this.#answered(socket, response);
    });
    socket.on('error', () => {});
    socket.on('close', () => this.#lost(socket));
    return socket;
  }

  #answered(socket: Socket, response: ParsedResponse): void {
    const pending = this.#inFlight;
    this.#inFlight = undefined;
    const answeredAt = this.#answerStartedAt;
    this.#answerStartedAt = -1;
    if (response.close) socket.destroy();
    pending?.done({ status: response.status, answeredAt });
    if (pending !== undefined) this.free(this);
  }

  #lost(socket: Socket): void {
    if (socket !== this.#socket) return;
    const pending = this.#inFlight;
    this.#inFlight = undefined;
    if (pending === undefined) return;
    pending.done({
      status: 0,
      answeredAt: nowMs(),
      error: new Error('connection closed before its answer'),
    });
    if (!this.#closing) this.free(this);
  }
}

/** A fixed pool of connections to `host:port`. */
export class RawPool {
  readonly #idle: Lane[] = [];
  readonly #line: Pending[] = [];
  #lineHead = 0;
  readonly #lanes: Lane[];

  constructor(port: number, host: string, connections: number) {
    const free = (lane: Lane) => this.#free(lane);
    this.#lanes = Array.from({ length: connections }, () => new Lane(port, host, free));
    this.#idle.push(...this.#lanes);
  }

  /** Sends `request` on the first free connection (now, or when one frees); `done` gets its end. */
  send(request: Buffer, done: (outcome: RawOutcome) => void): void {
    const lane = this.#idle.pop();
    if (lane !== undefined) lane.send({ request, done });
    else this.#line.push({ request, done });
  }

  /** Requests waiting for a free connection. */
  get waiting(): number {
    return this.#line.length - this.#lineHead;
  }

  /** Connections opened to replace ones the server closed, over the pool's life. */
  get reconnects(): number {
    return this.#lanes.reduce((sum, lane) => sum + lane.reconnects, 0);
  }

  /** Closes every connection. */
  close(): void {
    for (const lane of this.#lanes) lane.close();
  }

  #free(lane: Lane): void {
    if (this.#lineHead < this.#line.length) {
      const next = this.#line[this.#lineHead]!;
      this.#lineHead += 1;
      if (this.#lineHead === this.#line.length) {
        this.#line.length = 0;
        this.#lineHead = 0;
      }
      lane.send(next);
    } else {
      this.#idle.push(lane);
    }
  }
}
