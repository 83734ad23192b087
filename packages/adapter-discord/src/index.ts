// The declarations of discord.js's dependency need this shim on @types/node 26 (see the file).
import './node-util-compat.js';

export { createDiscordAdapter, DiscordAdapter } from './discord-adapter.js';
export {
  DiscordAdapterError,
  DiscordCallError,
  DiscordGatewayError,
  DiscordRequestError,
  DiscordTargetError,
} from './errors.js';
export type { GatewayNoticeName } from './gateway/gateway-notices.js';
export {
  type BotMessagePolicy,
  DEFAULT_GATEWAY_INTENTS,
  DEFAULT_GATEWAY_OPTIONS,
  type DiscordGatewayOptions,
  type MessageBusySignal,
} from './gateway/gateway-options.js';
export {
  type CommandDiff,
  type DiscordCommandDefinition,
  diffCommands,
} from './install/command-diff.js';
export {
  type DiscordInstallLinkOptions,
  type DiscordPermission,
  discordInstallUrl,
  permissionBits,
} from './install/install-link.js';
export {
  type RegisterCommandsOptions,
  type RegisterCommandsResult,
  registerCommands,
} from './install/register-commands.js';
export type { CommandInvocation } from './normalize/command-options.js';
export {
  commandInvocationOf,
  componentValuesOf,
  interactionOf,
  modalValuesOf,
} from './normalize/event-data.js';
export {
  type DiscordInstallation,
  installationOf as discordInstallationOf,
  tenantOf as discordTenantOf,
} from './normalize/installation.js';
export { type MessageTarget, messageTargetOf } from './normalize/message-target.js';
export type { ModalValue } from './normalize/modal-values.js';
export type { GatewayReaction } from './normalize/normalize-gateway-dispatch.js';
export type { DiscordNoticeName } from './notices.js';
export {
  DEFAULT_DISCORD_ADAPTER_OPTIONS,
  DEFAULT_REST_OPTIONS,
  type DiscordAdapterOptions,
  type EphemeralDecision,
} from './options.js';
export type { DiscordActions } from './outbound/actions.js';
export type {
  CallOptions as DiscordCallOptions,
  FollowUpOptions as DiscordFollowUpOptions,
  ThreadOptions as DiscordThreadOptions,
} from './outbound/discord-outbound.js';
export type { DiscordMessage, DiscordMessageBody } from './outbound/message-body.js';
export type { DiscordPlatform } from './outbound/platform.js';
export {
  DEFAULT_DISCORD_STREAM_OPTIONS,
  type DiscordStreamOptions,
} from './outbound/stream-writer.js';
export type { DiscordInteraction } from './parse/payload-types.js';
export { DISCORD_LIMITS, type DiscordLimit } from './render/limits.js';
export { BUSY_CHOICE_VALUE } from './respond/busy-choice.js';
export {
  autocompleteResult,
  type DiscordCallback,
  type DiscordChoice,
  MAX_CHOICES,
} from './respond/callback.js';
export {
  type ModalDefinition,
  messageResponse,
  modalResponse,
  updateMessageResponse,
} from './respond/handler-answers.js';
export { DISCORD_SHAPES, type DiscordShape, isDiscordShape } from './shapes.js';
export { DEFAULT_SIGNATURE_TOLERANCE_MS, type Freshness, isFresh } from './verify/freshness.js';
export { importPublicKey } from './verify/public-key.js';
export {
  checkSignatureHeaders,
  type SignatureCheck,
  type SignatureFailure,
  verifyDiscordSignature,
} from './verify/verify-signature.js';
