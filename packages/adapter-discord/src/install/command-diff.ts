/**
 * An application command definition as `PUT /applications/{id}/commands` takes it (chat input
 * commands with options, user and message context menus). Extra fields pass through to Discord.
 */
export interface DiscordCommandDefinition {
  readonly name: string;
  /** 1 chat input (default), 2 user, 3 message, 4 primary entry point. */
  readonly type?: number;
  readonly description?: string;
  readonly options?: readonly Readonly<Record<string, unknown>>[];
  readonly default_member_permissions?: string | null;
  readonly contexts?: readonly number[] | null;
  readonly integration_types?: readonly number[];
  readonly nsfw?: boolean;
  readonly name_localizations?: Readonly<Record<string, string>> | null;
  readonly description_localizations?: Readonly<Record<string, string>> | null;
  readonly [field: string]: unknown;
}

/** What a registration would change: commands by `type:name`. */
export interface CommandDiff {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: readonly string[];
}

/** Fields Discord adds to what it returns, which a definition never sets. */
const SERVER_FIELDS = new Set([
  'id',
  'application_id',
  'guild_id',
  'version',
  'default_permission',
  'dm_permission',
]);

/** `false`, `null`, empty arrays and empty objects are Discord's defaults for these fields. */
function isDefault(key: string, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (value === false && ['required', 'autocomplete', 'nsfw'].includes(key)) return true;
  if (key === 'type' && value === 1) return true;
  if (Array.isArray(value) && value.length === 0 && key !== 'contexts') return true;
  return (
    typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0
  );
}

/** A definition reduced to what decides its behaviour, with sorted keys, for comparison. */
export function canonicalCommand(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => canonicalCommand(item));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value).sort()) {
    const field = (value as Record<string, unknown>)[name];
    if ((key === '' && SERVER_FIELDS.has(name)) || isDefault(name, field)) continue;
    out[name] = canonicalCommand(field, name);
  }
  return out;
}

/** The identity of a command: its type and name (Discord keys bulk overwrites on both). */
export function commandKey(command: { readonly name?: unknown; readonly type?: unknown }): string {
  return `${typeof command.type === 'number' ? command.type : 1}:${String(command.name)}`;
}

/** What overwriting `current` (as Discord returns it) with `wanted` changes. */
export function diffCommands(
  current: readonly Readonly<Record<string, unknown>>[],
  wanted: readonly DiscordCommandDefinition[],
): CommandDiff {
  const before = new Map(current.map((command) => [commandKey(command), command]));
  const added: string[] = [];
  const changed: string[] = [];
  const unchanged: string[] = [];
  for (const command of wanted) {
    const key = commandKey(command);
    const existing = before.get(key);
    before.delete(key);
    if (existing === undefined) added.push(key);
    else if (
      JSON.stringify(canonicalCommand(existing)) === JSON.stringify(canonicalCommand(command))
    )
      unchanged.push(key);
    else changed.push(key);
  }
  return { added, changed, removed: [...before.keys()], unchanged };
}
