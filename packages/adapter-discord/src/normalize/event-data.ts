import type { RtEvent } from '@rt/core';
import { DiscordTargetError } from '../errors.js';
import type { DiscordInteraction } from '../parse/payload-types.js';
import { type CommandInvocation, flattenOptions } from './command-options.js';
import { type ModalValue, modalValuesFrom } from './modal-values.js';

/** The interaction behind a Discord event; throws `DiscordTargetError` for any other event. */
export function interactionOf(event: RtEvent): DiscordInteraction {
  const payload = event.payload as Partial<DiscordInteraction> | undefined;
  if (
    typeof payload !== 'object' ||
    payload === null ||
    typeof payload.token !== 'string' ||
    typeof payload.application_id !== 'string'
  ) {
    throw new DiscordTargetError(`event ${event.id} is not a Discord interaction`);
  }
  return payload as DiscordInteraction;
}

/**
 * The subcommand path and option values of a chat-input command or autocomplete event (the
 * `focused` option too, for autocomplete). Throws `DiscordTargetError` for other events.
 */
export function commandInvocationOf(event: RtEvent): CommandInvocation {
  const data = interactionOf(event).data as { options?: unknown };
  return flattenOptions(data.options);
}

/** The submitted field values of a modal submit, by field `custom_id`. */
export function modalValuesOf(event: RtEvent): Readonly<Record<string, ModalValue>> {
  const data = interactionOf(event).data as { components?: unknown };
  return modalValuesFrom(data.components);
}

/** The values chosen in a select component (empty for buttons). */
export function componentValuesOf(event: RtEvent): readonly string[] {
  const data = interactionOf(event).data as { values?: unknown };
  return Array.isArray(data.values)
    ? data.values.filter((v): v is string => typeof v === 'string')
    : [];
}
