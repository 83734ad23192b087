import type { KitNoticeName } from '@rt/core/adapter';
import type { GatewayNoticeName } from './gateway/gateway-notices.js';

/**
 * The names of the `adapter_notice` observations the Discord adapter emits: the kit's
 * (`KitNoticeName`: `signature_rejected`, `request_failed`, `dispatch_error`,
 * `ack_deadline_passed`, and `busy_signal_failed` for a late busy signal of an acknowledged
 * interaction that was dropped), and Discord's own:
 * - `ephemeral_decision_failed`: the `ephemeral` function threw; the answer was made ephemeral;
 * - `busy_choice_submitted`: a command arrived holding the busy autocomplete choice; it was
 *   answered busy and not dispatched.
 *
 * The gateway transport adds `GatewayNoticeName`; `busy_signal_failed` also covers a refused
 * gateway message's busy reply or reaction (`detail.via` `reply` or `reaction`).
 */
export type DiscordNoticeName =
  | KitNoticeName
  | 'ephemeral_decision_failed'
  | 'busy_choice_submitted'
  | GatewayNoticeName;
