/** The public types of the fake Slack Socket Mode (`startFakeSocketMode`). */
import type { FakeSocketConnection } from './fake-socket-mode-connection.js';
import type { FakeEnvelope, FakeEnvelopeInput } from './fake-socket-mode-envelopes.js';
import type { SlackTestPayload } from './payload.js';

/** One acknowledgement the fake received. */
export interface FakeSocketAck {
  readonly envelopeId: string;
  /** The ack's `payload`; `undefined` when the frame had none (the client library sends `{}`). */
  readonly payload: Record<string, unknown> | undefined;
  /** The connection it arrived on. */
  readonly connection: number;
  /** The envelope it acknowledges; `undefined` for an id the fake never sent. */
  readonly envelope: FakeEnvelope | undefined;
}

/** Why the fake sends a `disconnect` frame (Slack's reasons). */
export type FakeDisconnectReason =
  | 'refresh_requested'
  | 'warning'
  | 'link_disabled'
  | 'too_many_websockets';

/** How failing `apps.connections.open` calls answer. */
export interface FakeConnectionsOpenFailure {
  /** HTTP status. Default 200 with `{ ok: false, error }`. */
  readonly status?: number;
  /** Slack's error code. Default `internal_error`. */
  readonly error?: string;
}

/** Options of `startFakeSocketMode`. */
export interface FakeSocketModeOptions {
  /** The app token `apps.connections.open` accepts. Default: any token starting with `xapp-`. */
  readonly appToken?: string;
  /**
   * After how many ms an unacknowledged `events_api` envelope is redelivered (new envelope id,
   * `retry_attempt` + 1, `retry_reason: 'timeout'`) to a live connection, preferring one other
   * than the connection that did not ack it. A list gives the wait per attempt (the first entry
   * after the first delivery, the next after retry 1, ...; the last one repeats). `false`: only
   * `redeliverUnacked()` redelivers. Default 3000 (Slack's acknowledgement window).
   */
  readonly redeliverAfterMs?: number | readonly number[] | false;
  /** Redeliveries of one event before the fake gives up on it (`expired`). Default 3. */
  readonly maxRetries?: number;
}

/** Options of `send`. */
export interface FakeSendOptions {
  /** The connection to send on. Default: the newest open one. */
  readonly to?: FakeSocketConnection;
}

/** A running fake of Slack's Socket Mode endpoints. */
export interface FakeSocketMode {
  /** Web API base URL for `clientOptions.slackApiUrl` (ends with `/api/`). */
  readonly apiUrl: string;
  /** Every connection accepted so far, oldest first. */
  readonly connections: readonly FakeSocketConnection[];
  /** Every acknowledgement received, in arrival order. */
  readonly acks: readonly FakeSocketAck[];
  /** Every envelope sent, on any connection, in order (redeliveries included). */
  readonly sent: readonly FakeEnvelope[];
  /** `events_api` envelopes whose last retry went unacknowledged: Slack gave up on them. */
  readonly expired: readonly FakeEnvelope[];
  /** How many times `apps.connections.open` was called (failed calls included). */
  readonly connectionsOpenCalls: number;
  /** The connections open right now, oldest first. */
  openConnections(): FakeSocketConnection[];
  /**
   * Sends an envelope: a payload from the `@rt/testing/slack` builders (its type inferred) or an
   * explicit `{ type, payload }`. Throws when the target connection is not open.
   */
  send(payload: SlackTestPayload | FakeEnvelopeInput, options?: FakeSendOptions): FakeEnvelope;
  /** The acks of one envelope (normally zero or one). */
  acksOf(envelopeId: string): FakeSocketAck[];
  /** Every envelope sent for an Events API `event_id` (first delivery and redeliveries). */
  deliveriesOf(eventId: string): FakeEnvelope[];
  /** Sends a `disconnect` frame (default on the newest open connection). */
  disconnect(reason: FakeDisconnectReason, connection?: FakeSocketConnection): void;
  /** Destroys a connection's socket without a close frame (default the newest open one). */
  drop(connection?: FakeSocketConnection): void;
  /**
   * Stops reading a connection (default the newest open one): its acks and its close frame go
   * unread, so the client's close handshake hangs (a peer that never answers it).
   */
  stall(connection?: FakeSocketConnection): void;
  /** Makes the next `times` calls of `apps.connections.open` fail. */
  failConnectionsOpen(times: number, failure?: FakeConnectionsOpenFailure): void;
  /** Redelivers every unacknowledged `events_api` envelope now; returns the new envelopes. */
  redeliverUnacked(): FakeEnvelope[];
  /** Resolves with the `count`-th connection (1-based) once it has been greeted with `hello`. */
  waitForConnection(count?: number, timeoutMs?: number): Promise<FakeSocketConnection>;
  /** Resolves with the first ack of `envelopeId`. */
  waitForAck(envelopeId: string, timeoutMs?: number): Promise<FakeSocketAck>;
  /** Resolves with `check()`'s first defined value, re-checked on every frame and connection. */
  waitFor<T>(check: () => T | undefined, timeoutMs?: number): Promise<T>;
  /** Stops the timers, terminates every socket and closes the server. Idempotent. */
  close(): Promise<void>;
}
