import type { RtEvent } from '@rt/core';
import { ApplicationCommandType, ComponentType } from 'discord-api-types/v10';
import type { DiscordInteraction } from '../parse/payload-types.js';
import type { DiscordShape } from '../shapes.js';
import { flattenOptions, invocationText } from './command-options.js';
import { conversationOf } from './conversation.js';
import { installationOf, tenantOf } from './installation.js';
import { componentFields, formValues } from './neutral-values.js';

/** Per-delivery facts the normaliser needs. */
export interface NormalizeContext {
  readonly adapter: string;
  readonly receivedAt: number;
}

interface CommandData {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly options?: unknown;
  readonly target_id?: unknown;
  readonly resolved?: { readonly messages?: Record<string, { content?: unknown }> };
}

interface ComponentData {
  readonly custom_id?: unknown;
  readonly component_type?: unknown;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The names of the component types an action can come from, by type number. */
const COMPONENT_NAMES: ReadonlyMap<number, string> = new Map([
  [ComponentType.Button, 'button'],
  [ComponentType.StringSelect, 'string_select'],
  [ComponentType.UserSelect, 'user_select'],
  [ComponentType.RoleSelect, 'role_select'],
  [ComponentType.MentionableSelect, 'mentionable_select'],
  [ComponentType.ChannelSelect, 'channel_select'],
]);

/** `button`, `string_select`, ... from a component type number (`component_<n>` when unknown). */
function componentTypeName(type: unknown): string {
  return typeof type === 'number'
    ? (COMPONENT_NAMES.get(type) ?? `component_${type}`)
    : 'component';
}

type KindFields = Pick<
  RtEvent,
  | 'kind'
  | 'type'
  | 'text'
  | 'command'
  | 'actionId'
  | 'formId'
  | 'shortcutId'
  | 'value'
  | 'values'
  | 'message'
>;

function commandFields(data: CommandData): KindFields {
  const name = text(data.name) ?? '';
  if (data.type === ApplicationCommandType.User || data.type === ApplicationCommandType.Message) {
    const target = text(data.target_id);
    const content =
      target !== undefined ? text(data.resolved?.messages?.[target]?.content) : undefined;
    return {
      kind: 'shortcut',
      type: data.type === ApplicationCommandType.User ? 'user' : 'message',
      shortcutId: name,
      command: name,
      text: content,
    };
  }
  return {
    kind: 'command',
    // Chat input; an activity's entry-point command (data.type 4) is a command too.
    type:
      data.type === ApplicationCommandType.PrimaryEntryPoint ? 'primary_entry_point' : 'chat_input',
    command: name,
    text: invocationText(flattenOptions(data.options)),
  };
}

/** The fields of `shape`'s kind; an optional one may be `undefined` (the event then lacks it). */
function kindFields(shape: DiscordShape, interaction: DiscordInteraction): KindFields {
  const data = interaction.data as unknown;
  switch (shape) {
    case 'application_command':
      return commandFields(data as CommandData);
    case 'autocomplete': {
      const invocation = flattenOptions((data as CommandData).options);
      return {
        kind: 'suggestion',
        type: 'autocomplete',
        command: text((data as CommandData).name) ?? '',
        actionId: invocation.focused?.name,
        text: invocation.focused === undefined ? undefined : String(invocation.focused.value),
      };
    }
    case 'message_component': {
      // `value` and `message` may be undefined here: the event takes only the fields set.
      const { actionId, value, message } = componentFields(interaction);
      const type = componentTypeName((data as ComponentData).component_type);
      return { kind: 'action', type, actionId, value, message };
    }
    case 'modal_submit':
      return {
        kind: 'form_submit',
        type: 'modal_submit',
        formId: text((data as ComponentData).custom_id) ?? '',
        values: formValues(interaction),
      };
  }
}

/**
 * Normalises a parsed interaction to the neutral event (docs/events.md): chat-input commands →
 * `command` (`command` the name, `text` the flattened options); user and message context-menu
 * commands → `shortcut` (`shortcutId` the command name, `text` the target message's content);
 * components → `action` (`actionId` the `custom_id` up to a `|`, `value` after it or the chosen
 * option, `message` the message it was on, `type` `button`, `string_select`, ...); modal submits
 * → `form_submit` (`formId` the `custom_id`, `values` by field); autocomplete → `suggestion` (`actionId` the
 * focused option's name, `text` what the user typed, `command` the command). Identity: the
 * interaction id (Discord never redelivers an interaction). Tenant per `tenantOf`, channel and
 * thread per `conversationOf`. The payload is kept untouched.
 */
export function normalizeInteraction(
  shape: DiscordShape,
  interaction: DiscordInteraction,
  ctx: NormalizeContext,
): RtEvent<DiscordInteraction> {
  const fields = kindFields(shape, interaction);
  const { user, thread, channel } = conversationOf(interaction);
  // One literal of a fixed shape (no spreads), then the fields each shape may leave out.
  const event: Mutable<RtEvent<DiscordInteraction>> = {
    adapter: ctx.adapter,
    tenant: tenantOf(installationOf(interaction)),
    id: interaction.id,
    shape,
    kind: fields.kind,
    type: fields.type,
    receivedAt: ctx.receivedAt,
    payload: interaction,
  };
  for (const name of OPTIONAL_KIND_FIELDS) {
    const value = fields[name];
    if (value !== undefined) (event as Record<string, unknown>)[name] = value;
  }
  if (user !== undefined) event.user = user;
  if (thread !== undefined) event.thread = thread;
  if (channel !== undefined) event.channel = channel;
  return event;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The `KindFields` besides `kind` and `type`, copied onto the event only when set. */
const OPTIONAL_KIND_FIELDS = [
  'text',
  'command',
  'actionId',
  'formId',
  'shortcutId',
  'value',
  'values',
  'message',
] as const satisfies readonly (keyof KindFields)[];
