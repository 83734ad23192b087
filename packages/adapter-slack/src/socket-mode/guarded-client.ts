import { SocketModeClient, type SocketModeOptions } from '@slack/socket-mode';

/**
 * The envelope type the guard gives every `events_api` envelope before the client library reads
 * it; the transport reads it back as `events_api`.
 */
export const GUARDED_EVENTS_API = 'rt_events_api';

/** What the guard reports about the frames it sees. Implementations must not throw. */
export interface FrameWatcher {
  /** A text frame that is not a JSON object: there is no envelope id to acknowledge. */
  onUnreadable(reason: string): void;
  /** Slack asked for a new connection (`refresh_requested`, `warning`, `link_disabled`, ...). */
  onDisconnectFrame(reason: string): void;
  /** The library's message handler threw or rejected anyway: contained, never fatal. */
  onHandlerError(error: unknown): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `@slack/socket-mode`'s `SocketModeClient` with every raw frame inspected before the library's
 * own handler sees it:
 * - `events_api` envelopes are handed on with type `GUARDED_EVENTS_API`, so the library never
 *   reads `payload.event` (3.1.0 throws an unhandled rejection on an envelope without one, which
 *   is what `app_rate_limited` looks like) and never emits the inner event's type as an event
 *   name (one named like a lifecycle event, `connected` or `error`, would confuse it). They
 *   still reach `slack_event` with their `ack`, body and retry fields;
 * - frames that are not JSON objects are reported and dropped (the library would throw on `null`);
 * - `disconnect` frames are reported, then handled by the library (it closes the socket);
 * - whatever the library's handler still throws or rejects with is contained and reported.
 */
export class GuardedSocketModeClient extends SocketModeClient {
  readonly #watcher: FrameWatcher;

  constructor(options: SocketModeOptions, watcher: FrameWatcher) {
    super(options);
    this.#watcher = watcher;
  }

  protected override async onWebSocketMessage(
    data: string | ArrayBuffer,
    isBinary: boolean,
  ): Promise<void> {
    try {
      const frame = isBinary ? data : this.#guard(data);
      if (frame === undefined) return;
      await super.onWebSocketMessage(frame, isBinary);
    } catch (error) {
      this.#watcher.onHandlerError(error);
    }
  }

  /** The frame to hand on (possibly rewritten), or `undefined` to drop it. */
  #guard(data: string | ArrayBuffer): string | undefined {
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data);
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
    if (frame.type === 'disconnect') {
      this.#watcher.onDisconnectFrame(typeof frame.reason === 'string' ? frame.reason : 'unknown');
      return text;
    }
    if (frame.type === 'events_api') return JSON.stringify({ ...frame, type: GUARDED_EVENTS_API });
    return text;
  }
}
