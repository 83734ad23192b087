export {
  buildButton,
  buildModalSubmit,
  buildSelect,
  type ComponentOptions,
  type ModalSubmitOptions,
  type SelectOptions,
} from './component-payloads.js';
export {
  type FakeDiscordGateway,
  type FakeDiscordGatewayOptions,
  type FakeGatewayEvent,
  startFakeDiscordGateway,
} from './fake-gateway.js';
export { FAKE_GATEWAY_THREAD_ID, type FakeGatewayGuild } from './fake-gateway-guilds.js';
export { type FakeDiscord, startFakeDiscord } from './fake-gateway-pair.js';
export {
  buildGatewayMessage,
  buildGatewayReaction,
  FAKE_DM_CHANNEL_ID,
  type GatewayMessageOptions,
  type GatewayReactionOptions,
} from './fake-gateway-payloads.js';
export {
  type FakeDiscordCall,
  type FakeDiscordFailure,
  type FakeDiscordRejection,
  type FakeDiscordRest,
  type FakeDiscordRestOptions,
  type FakeDiscordRoute,
  startFakeDiscordRest,
} from './fake-rest.js';
export {
  DISCORD_CHANNEL_MESSAGE_RATE,
  DISCORD_CONTENT_LIMIT,
  type FakeDiscordMessage,
  FakeDiscordMessages,
  type FakeDiscordRateLimit,
} from './fake-rest-messages.js';
export {
  type AutocompleteOptions,
  buildAutocomplete,
  buildChatInputCommand,
  buildMessageCommand,
  buildPing,
  buildUserCommand,
  type ChatInputOptions,
  type ContextMenuOptions,
  DISCORD_TEST_IDS,
  type DiscordTestInteraction,
  type InteractionOptions,
  type OptionValue,
} from './payloads.js';
export {
  createDiscordSigner,
  type DiscordRequestOptions,
  type DiscordSignatureHeaders,
  type DiscordSigner,
} from './sign.js';
export {
  validateDiscordCallback,
  validateDiscordMessage,
  validateDiscordModal,
} from './validate-components.js';
