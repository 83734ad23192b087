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
export type { CommandInvocation } from './normalize/command-options.js';
export {
  commandInvocationOf,
  componentValuesOf,
  interactionOf,
  modalValuesOf,
} from './normalize/event-data.js';
export { type DiscordInstallation, installationOf, tenantOf } from './normalize/installation.js';
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
export type { CallOptions, FollowUpOptions, ThreadOptions } from './outbound/discord-outbound.js';
export type { DiscordMessage, DiscordMessageBody } from './outbound/message-body.js';
export {
  DEFAULT_DISCORD_STREAM_OPTIONS,
  type DiscordStreamOptions,
} from './outbound/stream-writer.js';
export type { DiscordInteraction } from './parse/payload-types.js';
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
export { importPublicKey } from './verify/public-key.js';
export {
  checkSignatureHeaders,
  type SignatureCheck,
  type SignatureFailure,
  verifyDiscordSignature,
} from './verify/verify-signature.js';
