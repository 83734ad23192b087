import type { RuntimeHandle } from '@rt/core/adapter';
import { adapterNotice } from '@rt/core/adapter';

/**
 * Every `adapter_notice` name the Slack adapter emits:
 * - `busy_signal_failed`: a busy-signal follow-up (`response_url`, `views.open`/`push`) failed or
 *   ran past `busySignalTimeoutMs`;
 * - `request_failed`: an unexpected failure while answering a request (answered 500);
 * - `dispatch_error`: dispatch threw something that is not an rt refusal (a bug);
 * - `ack_deadline_passed`: the answer went out at `ackDeadlineMs` before the dispatch settled;
 * - `app_rate_limited`: Slack reported the app over its Events API rate limit;
 * - `dropped_without_signal`: an acknowledged delivery was dropped where no follow-up can reach
 *   the user;
 * - `signature_rejected`: a request failed signature verification (answered 401);
 * - `unknown_installation`: a delivery of an installation the `installations` source does not
 *   know was answered without dispatch (`tenant`);
 * - `installation_unavailable`: the `installations` source could not resolve or revoke the
 *   delivery's installation (store down, token refresh failing): refused as unavailable.
 *
 * Socket Mode only:
 * - `socket_connected`: connection number `connection` said `hello`;
 * - `socket_connect_failed`: `apps.connections.open` or the handshake failed (`attempt`,
 *   `retryInMs`);
 * - `socket_closed`: an open connection closed without `stop()` (`reason`: the disconnect frame's,
 *   else `socket closed`; `reconnectInMs`);
 * - `socket_mode_log`: a line of the client library's log at or above `socketMode.logLevel`;
 * - `envelope_invalid`: an envelope whose payload could not be understood (acked, not dispatched);
 * - `envelope_unreadable`: a frame that is not a JSON object (nothing to ack);
 * - `envelope_failed`: an unexpected failure while answering an envelope (a bug; events are left
 *   unacked so Slack redelivers them, others get a plain ack);
 * - `ack_failed`: an ack could not be sent (the socket was gone): for an accepted event Slack
 *   redelivers it and the redelivery meets its dedupe mark; a direct invocation's user saw an error;
 * - `ack_payload_dropped`: an answer body could not be carried by the ack (not accepted by the
 *   envelope, or not a JSON object); a plain ack went out;
 * - `client_handler_failed`: the client library's message handler threw anyway (contained).
 */
export type SlackNoticeName =
  | 'busy_signal_failed'
  | 'request_failed'
  | 'dispatch_error'
  | 'ack_deadline_passed'
  | 'app_rate_limited'
  | 'dropped_without_signal'
  | 'signature_rejected'
  | 'unknown_installation'
  | 'installation_unavailable'
  | 'socket_connected'
  | 'socket_connect_failed'
  | 'socket_closed'
  | 'socket_mode_log'
  | 'envelope_invalid'
  | 'envelope_unreadable'
  | 'envelope_failed'
  | 'ack_failed'
  | 'ack_payload_dropped'
  | 'client_handler_failed';

/**
 * Emits a Slack `adapter_notice` through `runtime` (nothing before `attach`, when it is
 * `undefined`). Nothing it does (an observer that throws, ...) ever escapes.
 */
export function emitSlackNotice(
  runtime: RuntimeHandle | undefined,
  adapter: string,
  name: SlackNoticeName,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
): void {
  try {
    runtime?.observe(adapterNotice(adapter, name, detail, error));
  } catch {
    // Observation must never break a delivery.
  }
}
