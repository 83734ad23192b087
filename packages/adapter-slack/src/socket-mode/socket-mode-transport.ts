import type { DeliveryRetry } from '@rt/core';
import { abortable, PendingSet } from '@rt/core/adapter';
import { SlackSocketModeError } from '../errors.js';
import { answerSlackPayload } from '../inbound/answer-payload.js';
import type { SlackCoreDeps } from '../inbound/deps.js';
import {
  classifySlackPayload,
  type SlackInbound,
  type SlackPayloadSource,
} from '../parse/classify-payload.js';
import { type AckAction, ackActionOf } from './ack-action.js';
import { ConnectionLoop } from './connection-loop.js';
import { GUARDED_EVENTS_API, GuardedSocketModeClient } from './guarded-client.js';
import { loggerBridge } from './logger-bridge.js';
import type { ResolvedSocketModeOptions } from './options.js';

/** What `@slack/socket-mode` hands its `slack_event` listeners for one envelope. */
interface SlackEventArgs {
  ack(response?: Record<string, unknown>): Promise<void>;
  readonly envelope_id: string;
  readonly type: string;
  readonly body: unknown;
  readonly retry_num?: number;
  readonly retry_reason?: string;
  readonly accepts_response_payload?: boolean;
}

const SOURCES: ReadonlySet<string> = new Set(['events_api', 'slash_commands', 'interactive']);

function retryOf(args: SlackEventArgs): DeliveryRetry | undefined {
  const attempt = args.retry_num;
  if (typeof attempt !== 'number' || !Number.isInteger(attempt) || attempt <= 0) return undefined;
  return typeof args.retry_reason === 'string' && args.retry_reason.length > 0
    ? { attempt, reason: args.retry_reason }
    : { attempt };
}

/** The envelope's ids for notices: its own id, its type, and the event id of an Events API body. */
function detailOf(args: SlackEventArgs, source: string): Record<string, unknown> {
  const body = args.body as { event_id?: unknown; trigger_id?: unknown } | undefined;
  const eventId = source === 'events_api' ? body?.event_id : body?.trigger_id;
  return {
    envelopeId: args.envelope_id,
    envelopeType: source,
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
  readonly #inFlight = new PendingSet();
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
        onUnreadable: (reason) => notice('envelope_unreadable', { reason }),
        onDisconnectFrame: (reason) => this.#loop.noteDisconnectFrame(reason),
        onHandlerError: (error) => notice('client_handler_failed', undefined, error),
      },
    );
    this.#client.on('slack_event', (args: SlackEventArgs) => {
      this.#inFlight.track(this.#answer(args, this.#loop.openConnection));
    });
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
      while (this.#inFlight.size > 0) await this.#inFlight.settledNow(signal);
    } catch (error) {
      failure = { error };
    }
    // Synchronously after the last owed ack was written: no envelope is read in between.
    const closed = this.#loop.stop();
    // The client waits up to 30 s for Slack's close frame; at the step's deadline a second
    // disconnect terminates the socket instead, so nothing outlives the runtime's shutdown.
    const force = () => void this.#client.disconnect();
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

  /** Answers one envelope that arrived on connection `connection` and sends its ack. Never rejects. */
  async #answer(args: SlackEventArgs, connection: number): Promise<void> {
    const { notice, options } = this.#core;
    const source = args.type === GUARDED_EVENTS_API ? 'events_api' : args.type;
    const detail = detailOf(args, source);
    let action: AckAction;
    try {
      action = await this.#actionFor(args, source, options.clock());
    } catch (error) {
      notice('envelope_failed', detail, error);
      // Unanswered events come back (nothing was marked or the mark makes them duplicates).
      action = source === 'events_api' ? { kind: 'withhold' } : { kind: 'ack' };
    }
    if (action.kind === 'withhold') return;
    if (action.invalid !== undefined)
      notice('envelope_invalid', { ...detail, reason: action.invalid });
    if (action.dropped !== undefined)
      notice('ack_payload_dropped', { ...detail, reason: action.dropped });
    if (this.#loop.openConnection !== connection) {
      // Its socket is gone: Slack redelivers an event (an accepted one meets its dedupe mark);
      // a direct invocation's user saw an error. Never sent on another connection.
      notice(
        'ack_failed',
        detail,
        new SlackSocketModeError('the connection the envelope arrived on closed before its ack'),
      );
      return;
    }
    try {
      await args.ack(action.payload);
    } catch (error) {
      notice('ack_failed', detail, error);
    }
  }

  async #actionFor(args: SlackEventArgs, source: string, receivedAt: number): Promise<AckAction> {
    if (!SOURCES.has(source)) {
      return { kind: 'ack', invalid: `unknown envelope type ${JSON.stringify(source)}` };
    }
    let inbound: SlackInbound;
    try {
      inbound = classifySlackPayload(source as SlackPayloadSource, args.body);
    } catch (error) {
      return { kind: 'ack', invalid: (error as Error).message };
    }
    const retry = retryOf(args);
    const ack = await answerSlackPayload(this.#core, inbound, {
      receivedAt,
      ...(retry === undefined ? {} : { retry }),
    });
    return ackActionOf(ack, args.accepts_response_payload === true);
  }
}
