/**
 * Builders for every Discord interaction shape the HTTP adapter handles, as Discord sends them
 * (API v10): PING, commands and autocomplete here, components in `component-payloads.ts`. Every call
 * gets a fresh interaction id and token unless given. Plain JSON objects: no dependency on
 * discord-api-types.
 */

/** Ids the builders use by default. */
export const DISCORD_TEST_IDS = Object.freeze({
  applicationId: '100000000000000001',
  guildId: '200000000000000002',
  channelId: '300000000000000003',
  userId: '400000000000000004',
});

/** A built interaction: the JSON object Discord would POST. */
export type DiscordTestInteraction = Record<string, unknown> & {
  readonly id: string;
  readonly token: string;
  readonly type: number;
  readonly application_id: string;
};

/** Where and by whom an interaction happens. */
export interface InteractionOptions {
  readonly id?: string;
  readonly token?: string;
  readonly applicationId?: string;
  /** The guild; `null` for a DM (the user then comes as `user`, not `member`). */
  readonly guildId?: string | null;
  readonly channelId?: string;
  /** Discord channel type of the channel: 0 text (default in guilds), 1 DM, 11 public thread... */
  readonly channelType?: number;
  /** A thread's parent channel (with `channelType` 10, 11 or 12). */
  readonly parentId?: string;
  readonly userId?: string;
  /** `authorizing_integration_owners`; default `{ "0": guildId }` in guilds, `{}` in DMs. */
  readonly owners?: Readonly<Record<string, string>>;
  /** Extra top-level fields (`message`, `app_permissions`, ...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

let sequence = 0;

function nextId(): string {
  sequence += 1;
  return String(900_000_000_000_000_000n + BigInt(sequence));
}

/**
 * The interaction envelope every builder shares (ids, channel, user or member, token), with
 * `data` of the given type; `options.extra` is spread over it last. Internal to the builders.
 */
export function base(
  type: number,
  data: unknown,
  options: InteractionOptions,
): DiscordTestInteraction {
  const id = options.id ?? nextId();
  const guildId = options.guildId === undefined ? DISCORD_TEST_IDS.guildId : options.guildId;
  const channelId = options.channelId ?? DISCORD_TEST_IDS.channelId;
  const userId = options.userId ?? DISCORD_TEST_IDS.userId;
  const user = {
    id: userId,
    username: `user${userId.slice(-4)}`,
    discriminator: '0',
    global_name: null,
    avatar: null,
  };
  const channelType = options.channelType ?? (guildId === null ? 1 : 0);
  const channel: Record<string, unknown> = { id: channelId, type: channelType };
  if (options.parentId !== undefined) channel.parent_id = options.parentId;
  if (guildId !== null) channel.guild_id = guildId;
  const interaction: Record<string, unknown> = {
    id,
    application_id: options.applicationId ?? DISCORD_TEST_IDS.applicationId,
    type,
    data,
    token: options.token ?? `interaction-token-${id}`,
    version: 1,
    channel,
    channel_id: channelId,
    locale: 'en-US',
    app_permissions: '2248473465835073',
    entitlements: [],
    authorizing_integration_owners: options.owners ?? (guildId === null ? {} : { '0': guildId }),
    context: guildId === null ? 1 : 0,
    ...(guildId === null
      ? { user }
      : {
          guild_id: guildId,
          guild_locale: 'en-US',
          member: {
            user,
            roles: [],
            permissions: '2248473465835073',
            joined_at: '2024-01-01T00:00:00.000000+00:00',
          },
        }),
    ...options.extra,
  };
  return interaction as DiscordTestInteraction;
}

/** PING (type 1): Discord's endpoint check. */
export function buildPing(
  options: Pick<InteractionOptions, 'id' | 'applicationId'> = {},
): DiscordTestInteraction {
  const id = options.id ?? nextId();
  return {
    id,
    application_id: options.applicationId ?? DISCORD_TEST_IDS.applicationId,
    type: 1,
    token: `interaction-token-${id}`,
    version: 1,
  };
}

/** An option value of a chat-input command: its type is inferred (string 3, integer 4, boolean 5, number 10). */
export type OptionValue = string | number | boolean;

function optionType(value: OptionValue): number {
  if (typeof value === 'boolean') return 5;
  if (typeof value === 'number') return Number.isInteger(value) ? 4 : 10;
  return 3;
}

function leafOptions(values: Readonly<Record<string, OptionValue>>, focused?: string): unknown[] {
  return Object.entries(values).map(([name, value]) => ({
    name,
    type: optionType(value),
    value,
    ...(name === focused ? { focused: true } : {}),
  }));
}

function nest(leaves: unknown[], subcommand?: string, group?: string): unknown[] {
  if (subcommand === undefined) return leaves;
  const sub = [{ name: subcommand, type: 1, options: leaves }];
  return group === undefined ? sub : [{ name: group, type: 2, options: sub }];
}

/** Options of `buildChatInputCommand`. */
export interface ChatInputOptions extends InteractionOptions {
  /** Command name. Default `ask`. */
  readonly name?: string;
  /** Leaf option values by name. */
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly subcommand?: string;
  /** Needs `subcommand`. */
  readonly subcommandGroup?: string;
}

/** APPLICATION_COMMAND (type 2), chat input (data.type 1): a slash command. */
export function buildChatInputCommand(options: ChatInputOptions = {}): DiscordTestInteraction {
  const leaves = leafOptions(options.options ?? {});
  const nested = nest(leaves, options.subcommand, options.subcommandGroup);
  return base(
    2,
    {
      id: '500000000000000005',
      name: options.name ?? 'ask',
      type: 1,
      ...(nested.length > 0 ? { options: nested } : {}),
    },
    options,
  );
}

/** Options of the context-menu builders. */
export interface ContextMenuOptions extends InteractionOptions {
  /** Command name. Default `Inspect`. */
  readonly name?: string;
  /** The user or message right-clicked. */
  readonly targetId?: string;
  /** Message commands: the target message's content. */
  readonly content?: string;
}

/** APPLICATION_COMMAND (type 2), user context menu (data.type 2). */
export function buildUserCommand(options: ContextMenuOptions = {}): DiscordTestInteraction {
  const targetId = options.targetId ?? '400000000000000099';
  return base(
    2,
    {
      id: '500000000000000006',
      name: options.name ?? 'Inspect',
      type: 2,
      target_id: targetId,
      resolved: { users: { [targetId]: { id: targetId, username: 'target', discriminator: '0' } } },
    },
    options,
  );
}

/** APPLICATION_COMMAND (type 2), message context menu (data.type 3). */
export function buildMessageCommand(options: ContextMenuOptions = {}): DiscordTestInteraction {
  const targetId = options.targetId ?? '600000000000000099';
  const channelId = options.channelId ?? DISCORD_TEST_IDS.channelId;
  return base(
    2,
    {
      id: '500000000000000007',
      name: options.name ?? 'Summarise',
      type: 3,
      target_id: targetId,
      resolved: {
        messages: {
          [targetId]: {
            id: targetId,
            channel_id: channelId,
            content: options.content ?? 'the message right-clicked',
            author: { id: '400000000000000098', username: 'author', discriminator: '0' },
            timestamp: '2026-01-01T00:00:00.000000+00:00',
          },
        },
      },
    },
    options,
  );
}

/** Options of `buildAutocomplete`. */
export interface AutocompleteOptions extends InteractionOptions {
  /** Command name. Default `ask`. */
  readonly name?: string;
  /** The option being typed in. Default `{ name: 'topic', value: 'ca' }`. */
  readonly focused?: { readonly name: string; readonly value: OptionValue };
  /** Other options already filled in. */
  readonly options?: Readonly<Record<string, OptionValue>>;
  readonly subcommand?: string;
}

/** APPLICATION_COMMAND_AUTOCOMPLETE (type 4): the user is typing in an option. */
export function buildAutocomplete(options: AutocompleteOptions = {}): DiscordTestInteraction {
  const focused = options.focused ?? { name: 'topic', value: 'ca' };
  const values = { ...options.options, [focused.name]: focused.value };
  const leaves = leafOptions(values, focused.name);
  // Discord sends what the user typed as a string, whatever the option's type.
  for (const leaf of leaves as { name: string; value: OptionValue }[]) {
    if (leaf.name === focused.name) leaf.value = String(focused.value);
  }
  return base(
    4,
    {
      id: '500000000000000005',
      name: options.name ?? 'ask',
      type: 1,
      options: nest(leaves, options.subcommand),
    },
    options,
  );
}
