import type { DeliveryRetry } from '@rt/core';
import { abortable } from '@rt/core/adapter';
import { SlackSocketModeError } from '../errors.js';
import { answerSlackPayload } from '../inbound/answer-payload.js';
import type { SlackCoreDeps } from '../inbound/deps.js';
import {
  classifySlackPayload,
  type SlackInbound,
  type SlackPayloadSource,
} from '../parse/classify-payload.js';
import type { SlackAck } from '../respond/answer.js';
import { type AckAction, ackActionOf } from './ack-action.js';
import { ConnectionLoop } from './connection-loop.js';
import {
  type EnvelopeAck,
  GuardedSocketModeClient,
  type SocketEnvelope,
} from './guarded-client.js';
import { InFlightCount } from './in-flight.js';
import { loggerBridge } from './logger-bridge.js';
import type { ResolvedSocketModeOptions } from './options.js';
import { TurnCork } from './turn-cork.js';

const SOURCES: ReadonlySet<unknown> = new Set(['events_api', 'slash_commands', 'interactive']);

function retryOf(envelope: SocketEnvelope): DeliveryRetry | undefined {
  const attempt = envelope.retry_attempt;
  if (typeof attempt !== 'number' || !Number.isInteger(attempt) || attempt <= 0) return undefined;
  const reason = envelope.retry_reason;
  return typeof reason === 'string' && reason.length > 0 ? { attempt, reason } : { attempt };
}

/**
 * The envelope's ids for notices: its own id, its type, and the event id of an Events API body
 * (the trigger id of a direct invocation). Built only when a notice is emitted.
 */
function detailOf(envelope: SocketEnvelope): Record<string, unknown> {
  const body = envelope.payload as { event_id?: unknown; trigger_id?: unknown } | undefined;
  const eventId = envelope.type === 'events_api' ? body?.event_id : body?.trigger_id;
  return {
    envelopeId: envelope.envelope_id,
    envelopeType: envelope.type,
    ...(typeof eventId === 'string' ? { eventId } : {}),
  };
}

/**
 * Slack over Socket Mode: a `@slack/socket-mode` client (with its frames guarded, its logging
 * bridged to notices and its reconnects owned by a `ConnectionLoop`) whose envelopes go through
 * the transport-neutral core exactly like HTTP requests. This file only converts: an envelope
 * becomes a classified payload plus its delivery facts (receipt time, `retry_attempt`), and the
 * neutral acknowledgement becomes `ack(payload)`, or no ack for `retry` (an `events_api` envelope
 * left unacked is redelivered by Slack).
 */
export class SocketModeTransport {
  readonly #core: SlackCoreDeps;
  readonly #client: GuardedSocketModeClient;
  readonly #loop: ConnectionLoop;
  /** Envelopes read and not yet answered (each bounded by `ackDeadlineMs`). */
  readonly #inFlight = new InFlightCount();
  /** The acks of one event-loop turn leave in one write. */
  readonly #cork = new TurnCork();
  #stopped: Promise<void> | undefined;

  constructor(core: SlackCoreDeps, options: ResolvedSocketModeOptions) {
    this.#core = core;
    const notice = core.notice;
    this.#client = new GuardedSocketModeClient(
      {
        appToken: options.appToken,
        logger: loggerBridge(options.logLevel, (level, message) =>
          notice('socket_mode_log', { level, message }),
        ),
        autoReconnectEnabled: false,
        clientPingTimeout: options.clientPingTimeoutMs,
        serverPingTimeout: options.serverPingTimeoutMs,
        clientOptions: { ...options.clientOptions, slackApiUrl: options.apiUrl },
      },
      {
        onEnvelope: (envelope, ack) => {
          this.#inFlight.enter();
          void this.#answer(envelope, ack, this.#loop.openConnection);
        },
        onUnreadable: (reason) => notice('envelope_unreadable', { reason }),
        onDisconnectFrame: (reason) => this.#loop.noteDisconnectFrame(reason),
        onHandlerError: (error) => notice('client_handler_failed', undefined, error),
      },
    );
    this.#loop = new ConnectionLoop(this.#client, options, {
      connected: (connection) => notice('socket_connected', { connection }),
      connectFailed: (attempt, retryInMs, error) =>
        notice('socket_connect_failed', { attempt, retryInMs }, error),
      closed: (reason, reconnectInMs) => notice('socket_closed', { reason, reconnectInMs }),
    });
  }

  /**
   * Opens the connection (once) and resolves when Slack said `hello`; see `ConnectionLoop.start`.
   * Rejects with `signal.reason` when the runtime shuts down first.
   */
  start(signal: AbortSignal): Promise<void> {
    return this.#loop.start(signal);
  }

  /**
   * The shutdown sequence of ADR 0007, once (later calls share it): admission is already closed,
   * so every envelope read from now on is answered per the shape table (busy payloads for direct
   * invocations, no ack for events). First every ack the socket owes goes out: the envelopes in
   * flight when it began and those read while it waits (each bounded by `ackDeadlineMs`; it
   * converges because a refused envelope is answered at once). Then reconnecting stops and the
   * socket closes after those acks, awaited. Rejects with `signal.reason` when `signal` aborts
   * first; the socket is closed even then (terminated, when Slack has not answered the close
   * handshake by then).
   */
  stop(signal: AbortSignal): Promise<void> {
    this.#stopped ??= this.#runStop(signal);
    return abortable(this.#stopped, signal);
  }

  async #runStop(signal: AbortSignal): Promise<void> {
    let failure: { error: unknown } | undefined;
    try {
      if (this.#inFlight.size > 0) await this.#inFlight.drained(signal);
    } catch (error) {
      failure = { error };
    }
    // Synchronously after the last owed ack was written: no envelope is read in between, and
    // the acks held for this turn leave before the close frame.
    this.#cork.flush();
    const closed = this.#loop.stop();
    // The client waits up to 30 s for Slack's close frame; at the step's deadline a second
    // disconnect terminates the socket instead, so nothing outlives the runtime's shutdown.
    const force = () => {
      this.#cork.flush();
      void this.#client.disconnect();
    };
    if (signal.aborted) force();
    else signal.addEventListener('abort', force, { once: true });
    try {
      if (failure !== undefined) {
        closed.catch(() => undefined);
        throw failure.error;
      }
      await closed;
    } finally {
      signal.removeEventListener('abort', force);
    }
  }

  /**
   * Answers one envelope that arrived (now, on the adapter's clock) on connection `connection`
   * and sends its ack; leaves `#inFlight` (entered by the caller) once done. Never rejects.
   */
  async #answer(envelope: SocketEnvelope, ack: EnvelopeAck, connection: number): Promise<void> {
    const { notice, options } = this.#core;
    try {
      let action: AckAction;
      try {
        const answering = this.#answerOf(envelope, options.clock());
        const answer = answering instanceof Promise ? await answering : answering;
        const pending = ackActionOf(answer, envelope.accepts_response_payload === true);
        action = pending instanceof Promise ? await pending : pending;
      } catch (error) {
        notice('envelope_failed', detailOf(envelope), error);
        // Unanswered events come back (nothing was marked or the mark makes them duplicates).
        action = envelope.type === 'events_api' ? { kind: 'withhold' } : { kind: 'ack' };
      }
      if (action.kind === 'withhold') return;
      if (action.invalid !== undefined)
        notice('envelope_invalid', { ...detailOf(envelope), reason: action.invalid });
      if (action.dropped !== undefined)
        notice('ack_payload_dropped', { ...detailOf(envelope), reason: action.dropped });
      if (this.#loop.openConnection !== connection) {
        // Its socket is gone: Slack redelivers an event (an accepted one meets its dedupe mark);
        // a direct invocation's user saw an error. Never sent on another connection.
        notice(
          'ack_failed',
          detailOf(envelope),
          new SlackSocketModeError('the connection the envelope arrived on closed before its ack'),
        );
        return;
      }
      try {
        this.#cork.hold(this.#client.rawSocket);
        await ack(action.payload);
      } catch (error) {
        notice('ack_failed', detailOf(envelope), error);
      }
    } finally {
      this.#inFlight.leave();
    }
  }

  /**
   * The neutral answer to `envelope`: at once (`invalid`) for what is not dispatched, else the
   * Slack core's, at once or once dispatched.
   */
  #answerOf(envelope: SocketEnvelope, receivedAt: number): SlackAck | Promise<SlackAck> {
    const source = envelope.type;
    if (!SOURCES.has(source)) {
      return { kind: 'invalid', reason: `unknown envelope type ${JSON.stringify(source)}` };
    }
    let inbound: SlackInbound;
    try {
      inbound = classifySlackPayload(source as SlackPayloadSource, envelope.payload);
    } catch (error) {
      return { kind: 'invalid', reason: (error as Error).message };
    }
    const retry = retryOf(envelope);
    return answerSlackPayload(
      this.#core,
      inbound,
      retry === undefined ? { receivedAt } : { receivedAt, retry },
    );
  }
}
