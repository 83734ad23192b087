export {
  type AppMentionOptions,
  buildAppMentionEvent,
  buildAppRateLimited,
  buildEventCallback,
  buildMessageEvent,
  buildReactionEvent,
  buildUrlVerification,
  type EventEnvelopeOptions,
  type MessageEventOptions,
  type ReactionEventOptions,
  SLACK_TEST_IDS,
} from './event-payloads.js';
export type {
  FakeIssuedToken,
  FakeSlackOAuth,
  FakeSlackOAuthOptions,
  FakeWorkspace,
} from './fake-oauth-types.js';
export {
  type FakeConnectionsOpenFailure,
  type FakeDisconnectReason,
  type FakeSendOptions,
  type FakeSocketAck,
  type FakeSocketMode,
  type FakeSocketModeOptions,
  startFakeSocketMode,
} from './fake-socket-mode.js';
export type {
  FakeSocketClose,
  FakeSocketConnection,
} from './fake-socket-mode-connection.js';
export type {
  FakeEnvelope,
  FakeEnvelopeInput,
  FakeEnvelopeType,
} from './fake-socket-mode-envelopes.js';
export {
  type FakeFailure,
  type FakeSlackApi,
  type FakeSlackApiCall,
  type FakeSlackApiOptions,
  type FakeSlackRejection,
  startFakeSlackApi,
} from './fake-web-api.js';
export {
  type FakeAssistantCall,
  type FakeSlackMessage,
  FakeSlackMessages,
  type FakeSlackRateLimit,
  SLACK_STREAM_RATE_LIMITS,
  SLACK_TEXT_LIMIT,
} from './fake-web-api-messages.js';
export {
  type BlockActionsOptions,
  type BlockSuggestionOptions,
  buildBlockActions,
  buildBlockSuggestion,
  buildMessageAction,
  buildShortcut,
  buildSlashCommand,
  buildSslCheck,
  buildViewClosed,
  buildViewSubmission,
  type InvocationOptions,
  inputBlock,
  type MessageActionOptions,
  type SlashCommandOptions,
  sectionBlock,
  type ViewOptions,
  type ViewSubmissionOptions,
} from './interactive-payloads.js';
export { formPayload, interactivePayload, jsonPayload, type SlackTestPayload } from './payload.js';
export {
  RedeliveryScheduler,
  type RetryReason,
  type ScheduleResult,
  SLACK_RETRY_DELAYS_MS,
} from './redelivery.js';
export {
  createSlackSigner,
  type SlackRequestOptions,
  type SlackSignatureHeaders,
  type SlackSigner,
} from './sign.js';
export {
  type DeliveryResult,
  type RetryHeaders,
  SignerClient,
  SLACK_ACK_TIMEOUT_MS,
} from './signer-client.js';
export { validateSlackMessage, validateSlackView } from './validate-blocks.js';
