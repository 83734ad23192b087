import type { KitNoticeName } from '@rt/core/adapter';

/**
 * Every `adapter_notice` name the Slack adapter emits: the kit's (`KitNoticeName`:
 * `signature_rejected`, `request_failed`, `dispatch_error`, `ack_deadline_passed`, and
 * `busy_signal_failed` for a `response_url` or `views.open`/`push` follow-up), and Slack's own:
 * - `app_rate_limited`: Slack reported the app over its Events API rate limit;
 * - `dropped_without_signal`: an acknowledged delivery was dropped where no follow-up can reach
 *   the user;
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
  | KitNoticeName
  | 'app_rate_limited'
  | 'dropped_without_signal'
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
