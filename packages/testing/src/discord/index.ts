export {
  type FakeDiscordCall,
  type FakeDiscordFailure,
  type FakeDiscordRest,
  type FakeDiscordRestOptions,
  type FakeDiscordRoute,
  startFakeDiscordRest,
} from './fake-rest.js';
export {
  type AutocompleteOptions,
  buildAutocomplete,
  buildButton,
  buildChatInputCommand,
  buildMessageCommand,
  buildModalSubmit,
  buildPing,
  buildSelect,
  buildUserCommand,
  type ChatInputOptions,
  type ComponentOptions,
  type ContextMenuOptions,
  DISCORD_TEST_IDS,
  type DiscordTestInteraction,
  type InteractionOptions,
  type ModalSubmitOptions,
  type OptionValue,
  type SelectOptions,
} from './payloads.js';
export {
  createDiscordSigner,
  type DiscordRequestOptions,
  type DiscordSignatureHeaders,
  type DiscordSigner,
} from './sign.js';
