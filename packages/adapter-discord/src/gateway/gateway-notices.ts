/**
 * The `adapter_notice` names the gateway transport adds to `DiscordNoticeName`:
 * - `gateway_disconnected`: a shard's connection has been down for `disconnectedAlertMs` while
 *   discord.js reconnects (`detail.downForMs`, `detail.shardId`), or closed for good with an
 *   unrecoverable code (`detail.code`, `detail.recoverable: false`): alert on it;
 * - `gateway_reconnected`: the gateway is back after a `gateway_disconnected` (`detail.downForMs`);
 * - `gateway_error`: discord.js reported a shard error (`error`);
 * - `gateway_payload_ignored`: a dispatch could not be used (`detail.dispatch`, `detail.reason`);
 * - `interaction_callback_failed`: the answer to a gateway interaction did not reach Discord
 *   (`error`); the user sees "This interaction failed";
 * - `gateway_handling_failed`: handling a dispatch threw (a bug; `error`).
 */
export type GatewayNoticeName =
  | 'gateway_disconnected'
  | 'gateway_reconnected'
  | 'gateway_error'
  | 'gateway_payload_ignored'
  | 'interaction_callback_failed'
  | 'gateway_handling_failed';
