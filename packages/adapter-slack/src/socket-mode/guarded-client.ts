import type { Socket } from 'node:net';
import { SocketModeClient, type SocketModeOptions } from '@slack/socket-mode';

/** One envelope as Slack sent it (a JSON object that is neither `hello` nor `disconnect`). */
export interface SocketEnvelope {
  readonly envelope_id?: unknown;
  readonly type?: unknown;
  readonly payload?: unknown;
  readonly retry_attempt?: unknown;
  readonly retry_reason?: unknown;
  readonly accepts_response_payload?: unknown;
}

/** The library's acknowledgement of one envelope: `{ envelope_id, payload }` on its socket. */
export type EnvelopeAck = (response?: Record<string, unknown>) => Promise<void>;

/** What the guard reports about the frames it sees. Implementations must not throw. */
export interface FrameWatcher {
  /** An envelope, parsed once, with the library's own `ack` for it. */
  onEnvelope(envelope: SocketEnvelope, ack: EnvelopeAck): void;
  /** A text frame that is not a JSON object: there is no envelope id to acknowledge. */
  onUnreadable(reason: string): void;
  /** Slack asked for a new connection (`refresh_requested`, `warning`, `link_disabled`, ...). */
  onDisconnectFrame(reason: string): void;
  /** The library's message handler threw or rejected anyway: contained, never fatal. */
  onHandlerError(error: unknown): void;
}

/** What the message handler resolves when it had nothing (left) to wait for. */
const DONE: Promise<void> = Promise.resolve();

const DECODER = new TextDecoder();

/** The envelope type the library is shown in place of an envelope's own: it emits nothing for it. */
const STAND_IN = 'rt_envelope';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the library is handed for `envelope`: a frame with its id alone, so it builds the `ack`. */
function standInFrame(envelope: SocketEnvelope): string {
  const id = JSON.stringify(envelope.envelope_id);
  return id === undefined ? `{"type":"${STAND_IN}"}` : `{"type":"${STAND_IN}","envelope_id":${id}}`;
}

/**
 * `@slack/socket-mode`'s `SocketModeClient` with every raw frame read once, here, before the
 * library sees it:
 * - an envelope (any JSON object but `hello` and `disconnect`) goes to `onEnvelope` as parsed,
 *   with the library's `ack` for it. The library itself is handed only a stand-in frame carrying
 *   the envelope id (so its `ack` and its send path stay the library's own): it never parses the
 *   payload a second time, never reads `payload.event` (3.1.0 throws an unhandled rejection on an
 *   envelope without one, which is what `app_rate_limited` looks like) and never emits the inner
 *   event's type as an event name (one named like a lifecycle event, `connected` or `error`, would
 *   confuse it); its `slack_event` for the stand-in is swallowed;
 * - frames that are not JSON objects are reported and dropped (the library would throw on `null`);
 * - `hello` goes to the library; `disconnect` frames are reported, then handled by the library (it
 *   closes the socket);
 * - whatever the library's handler, or `onEnvelope`, still throws or rejects with is contained and
 *   reported.
 */
export class GuardedSocketModeClient extends SocketModeClient {
  readonly #watcher: FrameWatcher;
  /** The envelope whose stand-in the library is reading, synchronously, right now. */
  #reading: SocketEnvelope | undefined;

  constructor(options: SocketModeOptions, watcher: FrameWatcher) {
    super(options);
    this.#watcher = watcher;
  }

  protected override onWebSocketMessage(
    data: string | ArrayBuffer,
    isBinary: boolean,
  ): Promise<void> {
    // Not `async`: no async frame of its own per envelope, only the library's for the stand-in.
    try {
      if (isBinary) return this.#contained(super.onWebSocketMessage(data, isBinary));
      const text = typeof data === 'string' ? data : DECODER.decode(data);
      const frame = this.#read(text);
      if (frame === undefined) return DONE;
      if (frame.type === 'hello' || frame.type === 'disconnect') {
        if (frame.type === 'disconnect') {
          const reason = typeof frame.reason === 'string' ? frame.reason : 'unknown';
          this.#watcher.onDisconnectFrame(reason);
        }
        return this.#contained(super.onWebSocketMessage(text, false));
      }
      // The library emits `slack_event` synchronously, before its first await: `emit` below
      // picks up `#reading` and hands the envelope on with the library's ack.
      this.#reading = frame;
      let reading: Promise<void>;
      try {
        reading = super.onWebSocketMessage(standInFrame(frame), false);
      } finally {
        this.#reading = undefined;
      }
      return this.#contained(reading);
    } catch (error) {
      this.#watcher.onHandlerError(error);
      return DONE;
    }
  }

  /** `reading`, its rejection reported to the watcher instead. */
  #contained(reading: Promise<void>): Promise<void> {
    return reading.then(undefined, this.#onHandlerError);
  }

  readonly #onHandlerError = (error: unknown): void => {
    this.#watcher.onHandlerError(error);
  };

  /**
   * The library's emitter, with the `slack_event` of a stand-in frame turned into one
   * `onEnvelope` call (nothing emitted) and the event named after the stand-in's type dropped.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the emitter's own signature.
  override emit(event: string | symbol, ...args: any[]): boolean {
    const envelope = this.#reading;
    if (envelope === undefined) return super.emit(event, ...args);
    if (event === STAND_IN) return true;
    if (event !== 'slack_event') return super.emit(event, ...args);
    // Whatever `onEnvelope` emits (an ack sent at once) is the library's own again.
    this.#reading = undefined;
    this.#watcher.onEnvelope(envelope, (args[0] as { ack: EnvelopeAck }).ack);
    return true;
  }

  /**
   * The TCP (or TLS) socket under the open WebSocket, when the library's own connector made it:
   * 3.x captures it as `SlackWebSocket.defaultSocket` (private there, so read defensively; a
   * library without it gives `undefined`, and only the batching of writes is lost).
   */
  get rawSocket(): Socket | undefined {
    const socket = (this.websocket as { defaultSocket?: unknown } | undefined)?.defaultSocket;
    return typeof socket === 'object' && socket !== null && 'cork' in socket
      ? (socket as Socket)
      : undefined;
  }

  /** The frame as a JSON object, or `undefined` (reported) to drop it. */
  #read(text: string): Record<string, unknown> | undefined {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      this.#watcher.onUnreadable('not JSON');
      return undefined;
    }
    if (!isRecord(frame)) {
      this.#watcher.onUnreadable('not a JSON object');
      return undefined;
    }
    return frame;
  }
}
