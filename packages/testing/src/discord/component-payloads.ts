/** Signed-payload builders for Discord's component interactions: buttons, selects, modal submits. */
import {
  base,
  DISCORD_TEST_IDS,
  type DiscordTestInteraction,
  type InteractionOptions,
} from './payloads.js';

/** Options of the component builders. */
export interface ComponentOptions extends InteractionOptions {
  /** Default `approve`. */
  readonly customId?: string;
  /** The message the component is on. */
  readonly messageId?: string;
}

function componentMessage(options: ComponentOptions): Record<string, unknown> {
  return {
    id: options.messageId ?? '600000000000000001',
    channel_id: options.channelId ?? DISCORD_TEST_IDS.channelId,
    content: 'a message with components',
    author: {
      id: options.applicationId ?? DISCORD_TEST_IDS.applicationId,
      username: 'bot',
      bot: true,
    },
    timestamp: '2026-01-01T00:00:00.000000+00:00',
    components: [],
  };
}

/** MESSAGE_COMPONENT (type 3), a button (component_type 2). */
export function buildButton(options: ComponentOptions = {}): DiscordTestInteraction {
  return base(
    3,
    { custom_id: options.customId ?? 'approve', component_type: 2 },
    { ...options, extra: { message: componentMessage(options), ...options.extra } },
  );
}

/** Options of `buildSelect`. */
export interface SelectOptions extends ComponentOptions {
  readonly values?: readonly string[];
  /** 3 string select (default), 5 user, 6 role, 7 mentionable, 8 channel. */
  readonly componentType?: number;
}

/** MESSAGE_COMPONENT (type 3), a select menu. */
export function buildSelect(options: SelectOptions = {}): DiscordTestInteraction {
  return base(
    3,
    {
      custom_id: options.customId ?? 'pick',
      component_type: options.componentType ?? 3,
      values: [...(options.values ?? ['a'])],
    },
    { ...options, extra: { message: componentMessage(options), ...options.extra } },
  );
}

/** Options of `buildModalSubmit`. */
export interface ModalSubmitOptions extends InteractionOptions {
  /** Default `feedback`. */
  readonly customId?: string;
  /** Text input values by `custom_id`. */
  readonly fields?: Readonly<Record<string, string>>;
  /** Submitted from a modal a component opened: carries that component's `message` (answered type 6). */
  readonly fromMessage?: boolean;
  /** Use the label layout (type 18 wrapping each input) instead of action rows. */
  readonly labels?: boolean;
  /** String select values by `custom_id` (always in the label layout, as Discord sends them). */
  readonly selects?: Readonly<Record<string, readonly string[]>>;
}

/** MODAL_SUBMIT (type 5) with its text inputs' values. */
export function buildModalSubmit(options: ModalSubmitOptions = {}): DiscordTestInteraction {
  const fields = Object.entries(options.fields ?? { comment: 'looks good' });
  const components = fields.map(([customId, value]) =>
    options.labels === true
      ? { type: 18, id: 1, component: { type: 4, custom_id: customId, value } }
      : { type: 1, components: [{ type: 4, custom_id: customId, value }] },
  );
  for (const [customId, values] of Object.entries(options.selects ?? {})) {
    components.push({
      type: 18,
      id: 1,
      component: { type: 3, custom_id: customId, values },
    } as never);
  }
  return base(
    5,
    { custom_id: options.customId ?? 'feedback', components },
    {
      ...options,
      extra: {
        ...(options.fromMessage === true ? { message: componentMessage(options) } : {}),
        ...options.extra,
      },
    },
  );
}
