import type { PostedMessage } from '@rt/core';
import type { DiscordInteraction } from '../parse/payload-types.js';
import { splitCustomId } from '../render/components.js';
import { modalValuesFrom } from './modal-values.js';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * A component interaction's neutral fields: `actionId` the neutral id of its `custom_id` (the part
 * before `|`), `value` the button's value (after `|`) or the first chosen select value, and
 * `message` the message the component was on.
 */
export function componentFields(interaction: DiscordInteraction): {
  actionId: string;
  value?: string;
  message?: PostedMessage;
} {
  const data = interaction.data as { custom_id?: unknown; values?: unknown };
  const { id, value } = splitCustomId(text(data.custom_id) ?? '');
  const chosen = Array.isArray(data.values)
    ? data.values.find((v) => typeof v === 'string')
    : undefined;
  const resolved = value ?? (chosen as string | undefined);
  const message = interaction.message as { id?: unknown; channel_id?: unknown } | undefined;
  const messageId = text(message?.id);
  const channel = text(message?.channel_id) ?? text(interaction.channel_id);
  const fields: { actionId: string; value?: string; message?: PostedMessage } = { actionId: id };
  if (resolved !== undefined) fields.value = resolved;
  if (messageId !== undefined && channel !== undefined) fields.message = { channel, id: messageId };
  return fields;
}

/**
 * A modal submit's `event.values`: every field by its `custom_id`, a text input's text (`''` when
 * empty) or a select's first chosen value (`''` when none), the same shape as Slack's.
 */
export function formValues(interaction: DiscordInteraction): Readonly<Record<string, string>> {
  const raw = modalValuesFrom((interaction.data as { components?: unknown }).components);
  const values: Record<string, string> = {};
  for (const [field, value] of Object.entries(raw)) {
    values[field] = typeof value === 'string' ? value : (value[0] ?? '');
  }
  return values;
}
