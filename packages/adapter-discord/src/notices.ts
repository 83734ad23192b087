import type { GatewayNoticeName } from './gateway/gateway-notices.js';

/**
 * The names of the `adapter_notice` observations the Discord adapter emits:
 * - `signature_rejected`: a request failed verification and was answered 401 (`detail.reason`);
 * - `request_failed`: an unexpected failure answered 500 (a bug; `error`);
 * - `dispatch_error`: dispatch threw something that is no rt refusal (a bug; answered unavailable);
 * - `ack_deadline_passed`: the answer was not ready by `ackDeadlineMs`; the unavailable refusal went out;
 * - `busy_signal_failed`: a late busy signal (an acknowledged interaction that was dropped) failed;
 * - `ephemeral_decision_failed`: the `ephemeral` function threw; the answer was made ephemeral;
 * - `busy_choice_submitted`: a command arrived holding the busy autocomplete choice; it was
 *   answered busy and not dispatched.
 *
 * The gateway transport adds `GatewayNoticeName`; `busy_signal_failed` also covers a refused
 * gateway message's busy reply or reaction (`detail.via` `reply` or `reaction`).
 */
export type DiscordNoticeName =
  | 'signature_rejected'
  | 'request_failed'
  | 'dispatch_error'
  | 'ack_deadline_passed'
  | 'busy_signal_failed'
  | 'ephemeral_decision_failed'
  | 'busy_choice_submitted'
  | GatewayNoticeName;
