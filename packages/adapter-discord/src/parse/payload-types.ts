/**
 * The interaction payloads the adapter reads, as `discord-api-types` (v10) describes them. Handlers
 * get them untouched as `RtEvent.payload`.
 */
import type {
  APIApplicationCommandAutocompleteInteraction,
  APIApplicationCommandInteraction,
  APIMessageComponentInteraction,
  APIModalSubmitInteraction,
} from 'discord-api-types/v10';

/** Any dispatchable interaction (everything but PING). */
export type DiscordInteraction =
  | APIApplicationCommandInteraction
  | APIMessageComponentInteraction
  | APIModalSubmitInteraction
  | APIApplicationCommandAutocompleteInteraction;
