import { InteractionType } from 'discord-api-types/v10';

/**
 * The Discord interaction shapes the adapter tells apart. Each becomes `RtEvent.shape` and selects
 * a row of the shape-aware answer table (docs/contract.md §9.2).
 */
export const DISCORD_SHAPES = [
  'application_command',
  'message_component',
  'modal_submit',
  'autocomplete',
] as const;

/** A dispatchable Discord interaction shape. */
export type DiscordShape = (typeof DISCORD_SHAPES)[number];

/** True when `value` names a dispatchable Discord shape. */
export function isDiscordShape(value: unknown): value is DiscordShape {
  return typeof value === 'string' && (DISCORD_SHAPES as readonly string[]).includes(value);
}

/** The shape of a dispatchable interaction `type`, or `undefined` (PING, unknown types). */
export function shapeOfType(type: number): DiscordShape | undefined {
  switch (type) {
    case InteractionType.ApplicationCommand:
      return 'application_command';
    case InteractionType.MessageComponent:
      return 'message_component';
    case InteractionType.ApplicationCommandAutocomplete:
      return 'autocomplete';
    case InteractionType.ModalSubmit:
      return 'modal_submit';
    default:
      return undefined;
  }
}
