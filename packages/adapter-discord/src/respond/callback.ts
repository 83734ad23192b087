import { InteractionResponseType, MessageFlags } from 'discord-api-types/v10';

/**
 * A neutral interaction callback: the JSON Discord expects as the answer to an interaction, over
 * HTTP as the 200 body (`{ type, data }`), through a gateway transport as the REST callback.
 */
export interface DiscordCallback {
  /** Discord's `InteractionResponseType`: 1 pong, 4 message, 5 deferred message, 6 deferred update, 7 update, 8 choices, 9 modal. */
  readonly type: number;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** One autocomplete choice (Discord caps names at 100 characters and lists at 25). */
export interface DiscordChoice {
  readonly name: string;
  readonly value: string | number;
}

/** Discord's cap on autocomplete choices. */
export const MAX_CHOICES = 25;
/** Discord's cap on a choice name. */
const CHOICE_NAME_MAX = 100;
/** Discord's cap on message content. */
const CONTENT_MAX = 2000;

/** `text` cut to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** PONG, the answer to Discord's PING (type 1). */
export function pong(): DiscordCallback {
  return { type: InteractionResponseType.Pong };
}

/** Type 5: "thinking…", answered later by editing `@original`. `ephemeral` is fixed here, for good. */
export function deferredMessage(ephemeral: boolean): DiscordCallback {
  return ephemeral
    ? {
        type: InteractionResponseType.DeferredChannelMessageWithSource,
        data: { flags: MessageFlags.Ephemeral },
      }
    : { type: InteractionResponseType.DeferredChannelMessageWithSource };
}

/** Type 6: acknowledges a component (or a modal opened from one) without changing its message. */
export function deferredUpdate(): DiscordCallback {
  return { type: InteractionResponseType.DeferredMessageUpdate };
}

/** Type 4 with flags 64: a message only the invoking user sees, mentioning nobody. */
export function ephemeralMessage(text: string): DiscordCallback {
  return {
    type: InteractionResponseType.ChannelMessageWithSource,
    data: {
      content: truncate(text, CONTENT_MAX),
      flags: MessageFlags.Ephemeral,
      allowed_mentions: { parse: [] },
    },
  };
}

/** Type 8 with at most `MAX_CHOICES` choices (the rest are dropped), names cut to 100 characters. */
export function autocompleteResult(choices: readonly DiscordChoice[]): DiscordCallback {
  return {
    type: InteractionResponseType.ApplicationCommandAutocompleteResult,
    data: {
      choices: choices
        .slice(0, MAX_CHOICES)
        .map((choice) => ({ ...choice, name: truncate(String(choice.name), CHOICE_NAME_MAX) })),
    },
  };
}
