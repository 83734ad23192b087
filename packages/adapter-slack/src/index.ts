export type { SlackSuggestedPrompt } from './assistant/assistant-calls.js';
export { onSlackAssistant, type SlackAssistantHandlers } from './assistant/assistant-routes.js';
export {
  assistantThreadOf,
  isAssistantThreadContextChanged,
  isAssistantThreadMessage,
  isAssistantThreadStarted,
  type SlackAssistantThread,
} from './assistant/assistant-thread.js';
export {
  SlackAdapterError,
  SlackCallError,
  SlackRequestError,
  SlackSocketModeError,
  SlackTargetError,
  SlackTokenError,
  SlackUnknownInstallationError,
} from './errors.js';
export type { SlackInstallationSource, SlackRevocation } from './installs/installation-source.js';
export {
  installationOf as slackInstallationOf,
  type SlackInstallation,
  type SlackTokenResolver,
  tenantOf as slackTenantOf,
} from './normalize/installation.js';
export type { MentionAndMessage } from './normalize/message-identity.js';
export type { SlackNoticeName } from './notices.js';
export {
  DEFAULT_SLACK_ADAPTER_OPTIONS,
  DEFAULT_WEB_CLIENT_OPTIONS,
  type SlackAdapterOptions,
} from './options.js';
export type { SlackActions } from './outbound/actions.js';
export type { SlackMessageRef } from './outbound/event-refs.js';
export type { SlackPlatform } from './outbound/platform.js';
export type {
  CallOptions as SlackCallOptions,
  RespondOptions as SlackRespondOptions,
  SlackMessage,
  SlackViewDefinition,
} from './outbound/slack-outbound.js';
export {
  DEFAULT_SLACK_STREAM_OPTIONS,
  type SlackStreamOptions,
} from './outbound/stream-options.js';
export type {
  SlackAction,
  SlackAppRateLimited,
  SlackAuthorization,
  SlackBlock,
  SlackEventCallback,
  SlackInnerEvent,
  SlackInteractive,
  SlackSlashCommand,
  SlackView,
} from './parse/payload-types.js';
export { SLACK_LIMITS, type SlackLimit } from './render/limits.js';
export { BUSY_OPTION_VALUE } from './respond/busy-surfaces.js';
export { isSlackShape, SLACK_SHAPES, type SlackShape } from './shapes.js';
export { createSlackAdapter, SlackAdapter } from './slack-adapter.js';
export {
  DEFAULT_SOCKET_MODE_OPTIONS,
  type SlackSocketModeOptions,
  type SocketModeLogLevel,
} from './socket-mode/options.js';
export {
  type SignatureCheck,
  type SignatureFailure,
  verifySlackSignature,
} from './verify/verify-signature.js';
