import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import type { DiscordInteraction } from '../parse/payload-types.js';
import { autocompleteResult, type DiscordCallback } from './callback.js';

/**
 * Value of the single choice answered to an autocomplete request when the app is busy or
 * unavailable. A chat-input command submitted with it as an option value is answered with the busy
 * text instead of being dispatched.
 */
export const BUSY_CHOICE_VALUE = 'rt:busy';

interface RawOption {
  readonly type?: unknown;
  readonly focused?: unknown;
  readonly options?: unknown;
}

/** The `type` of the focused option, searching subcommands. */
function focusedType(options: unknown, depth = 0): unknown {
  if (!Array.isArray(options) || depth > 2) return undefined;
  for (const option of options as RawOption[]) {
    if (option?.focused === true) return option.type;
    const inner = focusedType(option?.options, depth + 1);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * The autocomplete answer when no real choices can be given: one choice named `text` whose value
 * is `BUSY_CHOICE_VALUE` for a string option. Integer and number options cannot carry that value,
 * so they get an empty list (Discord shows no options) rather than a choice that could be taken as
 * real input.
 */
export function busyChoices(interaction: DiscordInteraction, text: string): DiscordCallback {
  const type = focusedType((interaction.data as { options?: unknown }).options);
  if (
    type === ApplicationCommandOptionType.Integer ||
    type === ApplicationCommandOptionType.Number
  ) {
    return autocompleteResult([]);
  }
  return autocompleteResult([{ name: text, value: BUSY_CHOICE_VALUE }]);
}

/** True when a chat-input command carries the busy choice as one of its option values. */
export function holdsBusyChoice(options: Readonly<Record<string, unknown>>): boolean {
  return Object.values(options).includes(BUSY_CHOICE_VALUE);
}
