import { InteractionResponseType, MessageFlags } from 'discord-api-types/v10';
import { type DiscordMessage, messageBody } from '../outbound/message-body.js';
import type { DiscordCallback } from './callback.js';

/** A modal's definition: `custom_id` (becomes the submit's `formId`), `title`, `components`. */
export interface ModalDefinition {
  readonly custom_id: string;
  readonly title: string;
  readonly components: readonly unknown[];
}

/**
 * Type 9: opens a modal. Return it from a sync handler (make `application_command` or
 * `message_component` sync in `dispatchModes`): a modal can only be the first answer.
 */
export function modalResponse(modal: ModalDefinition): DiscordCallback {
  return { type: InteractionResponseType.Modal, data: { ...modal } };
}

/** Type 4: a message as the answer of a sync handler, ephemeral on request. */
export function messageResponse(
  message: DiscordMessage,
  options: { readonly ephemeral?: boolean } = {},
): DiscordCallback {
  const data = messageBody(message);
  if (options.ephemeral === true) data.flags = (Number(data.flags) || 0) | MessageFlags.Ephemeral;
  return { type: InteractionResponseType.ChannelMessageWithSource, data };
}

/** Type 7: replaces the message a component sits on (sync component handlers). */
export function updateMessageResponse(message: DiscordMessage): DiscordCallback {
  return { type: InteractionResponseType.UpdateMessage, data: messageBody(message) };
}
