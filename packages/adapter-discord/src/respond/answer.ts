import type { DispatchResult, RtEvent } from '@rt/core';
import { isFormErrors } from '@rt/core/adapter';
import { InteractionResponseType, MessageFlags } from 'discord-api-types/v10';
import type { DiscordInteraction } from '../parse/payload-types.js';
import { discordFormErrors } from '../render/components.js';
import { busyChoices } from './busy-choice.js';
import {
  autocompleteResult,
  type DiscordCallback,
  type DiscordChoice,
  deferredMessage,
  deferredUpdate,
  ephemeralMessage,
  truncate,
} from './callback.js';

/** Texts of the visible signals. */
export interface SignalTexts {
  readonly busyText: string;
  readonly unavailableText: string;
  readonly unroutedText: string;
}

/**
 * True when the interaction is answered by updating a message rather than creating one: a
 * component, or a modal submitted from a component's modal (it carries `message`). Those get a
 * type 6 acknowledgement; commands and other modals a type 5.
 */
export function answersByUpdate(event: RtEvent): boolean {
  if (event.shape === 'message_component') return true;
  return event.shape === 'modal_submit' && (event.payload as { message?: unknown }).message != null;
}

/**
 * The acknowledgement of an accepted deferred delivery (and of a duplicate, which is answered as
 * handled before): type 6 for components and modals from components, type 5 otherwise, ephemeral
 * when `ephemeral` (decided before the ack, as Discord fixes it there); autocomplete an empty type 8.
 */
export function plainAck(event: RtEvent, ephemeral: boolean): DiscordCallback {
  if (event.shape === 'autocomplete') return autocompleteResult([]);
  return answersByUpdate(event) ? deferredUpdate() : deferredMessage(ephemeral);
}

/**
 * The shape-aware answer to a refused delivery (admission rejected, prelude error, shutdown, or
 * the deadline passed), carrying `text` (docs/contract.md §9.2): type 4 with flags 64 for commands, components
 * and modal submits (Discord never redelivers an interaction, so the user is told at once); for
 * autocomplete a type 8 with one busy choice (`busyChoices`).
 */
export function refusalFor(event: RtEvent, text: string): DiscordCallback {
  if (event.shape === 'autocomplete') {
    return busyChoices(event.payload as DiscordInteraction, text);
  }
  return ephemeralMessage(text);
}

function isCallback(value: unknown): value is DiscordCallback {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'number'
  );
}

/**
 * Turns a sync handler's return value into the callback: `formErrors(...)` becomes an ephemeral
 * type 4 listing them; a `{ type, data }` object is sent as is
 * (a modal, type 9; a message, type 4; an update, type 7; autocomplete choices capped at 25); a
 * string becomes a type 4 message (ephemeral when the command is); an array answers autocomplete
 * as its choices (first 25). Anything else is `undefined` (answered like no value at all).
 */
export function handlerCallback(
  event: RtEvent,
  value: unknown,
  ephemeral: boolean,
): DiscordCallback | undefined {
  if (isFormErrors(value)) {
    return {
      type: InteractionResponseType.ChannelMessageWithSource,
      data: discordFormErrors(value),
    };
  }
  if (isCallback(value)) {
    if (event.shape === 'autocomplete') {
      const choices = (value.data as { choices?: unknown } | undefined)?.choices;
      return autocompleteResult(Array.isArray(choices) ? (choices as DiscordChoice[]) : []);
    }
    return value;
  }
  if (event.shape === 'autocomplete') {
    return Array.isArray(value) ? autocompleteResult(value as DiscordChoice[]) : undefined;
  }
  if (typeof value === 'string') {
    return {
      type: InteractionResponseType.ChannelMessageWithSource,
      data: {
        content: truncate(value, 2000),
        ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
      },
    };
  }
  return undefined;
}

/**
 * Maps a resolved dispatch to the callback (docs/contract.md §9.2):
 * - accepted and duplicate: `plainAck`;
 * - unrouted: components (and modals from them) type 6, autocomplete no choices, commands and other
 *   modals an ephemeral `unroutedText` (a type 5 nobody follows up would spin until Discord gives up);
 * - completed (sync): the handler's value (`handlerCallback`); none, with outcome `completed`:
 *   `plainAck`; none otherwise: a refusal, busy wording when dropped or superseded, unavailable
 *   wording when the handler threw or ran out of time, so a user never sees a fake success.
 */
export function answerForResult(
  event: RtEvent,
  result: DispatchResult,
  texts: SignalTexts,
  ephemeral: boolean,
): DiscordCallback {
  switch (result.status) {
    case 'accepted':
    case 'duplicate':
      return plainAck(event, ephemeral);
    case 'unrouted':
      if (event.shape === 'autocomplete' || answersByUpdate(event))
        return plainAck(event, ephemeral);
      return ephemeralMessage(texts.unroutedText);
    case 'completed': {
      const answer =
        result.response === undefined
          ? undefined
          : handlerCallback(event, result.response, ephemeral);
      if (answer !== undefined) return answer;
      if (result.outcome === 'completed') return plainAck(event, ephemeral);
      const busy = result.outcome === 'dropped' || result.outcome === 'superseded';
      return refusalFor(event, busy ? texts.busyText : texts.unavailableText);
    }
  }
}
