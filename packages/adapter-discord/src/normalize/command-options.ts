import { ApplicationCommandOptionType } from 'discord-api-types/v10';

/** A chat-input command's invocation, flattened out of Discord's nested option tree. */
export interface CommandInvocation {
  /** The subcommand group's name (`/config user set` → `user`), if any. */
  readonly subcommandGroup?: string;
  /** The subcommand's name (`/config user set` → `set`), if any. */
  readonly subcommand?: string;
  /** Option values by name (strings, numbers, booleans, or snowflakes for users/roles/channels). */
  readonly options: Readonly<Record<string, string | number | boolean>>;
  /** The option the user is typing in (autocomplete only). */
  readonly focused?: { readonly name: string; readonly value: string | number | boolean };
}

interface RawOption {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly value?: unknown;
  readonly options?: unknown;
  readonly focused?: unknown;
}

function isValue(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * Flattens a command's `data.options`: the subcommand group and subcommand become their own
 * fields, leaf options a name → value record. Malformed entries are skipped, never thrown on.
 */
export function flattenOptions(raw: unknown): CommandInvocation {
  let subcommandGroup: string | undefined;
  let subcommand: string | undefined;
  const options: Record<string, string | number | boolean> = {};
  let focused: CommandInvocation['focused'];
  let level: unknown = raw;
  for (let depth = 0; depth < 3 && Array.isArray(level); depth += 1) {
    let next: unknown;
    for (const entry of level as RawOption[]) {
      if (typeof entry !== 'object' || entry === null || typeof entry.name !== 'string') continue;
      if (entry.type === ApplicationCommandOptionType.SubcommandGroup) {
        subcommandGroup = entry.name;
        next = entry.options;
      } else if (entry.type === ApplicationCommandOptionType.Subcommand) {
        subcommand = entry.name;
        next = entry.options;
      } else if (isValue(entry.value)) {
        options[entry.name] = entry.value;
        if (entry.focused === true) focused = { name: entry.name, value: entry.value };
      }
    }
    level = next;
  }
  return {
    ...(subcommandGroup !== undefined ? { subcommandGroup } : {}),
    ...(subcommand !== undefined ? { subcommand } : {}),
    options,
    ...(focused !== undefined ? { focused } : {}),
  };
}

/**
 * The text rt puts in `RtEvent.text` for a chat-input command: the subcommand path, then each
 * option as `name:value`, space-separated (`/config user set` with `key: theme` → `user set
 * key:theme`). Handlers wanting typed values use `commandInvocationOf`.
 */
export function invocationText(invocation: CommandInvocation): string {
  const parts: string[] = [];
  if (invocation.subcommandGroup !== undefined) parts.push(invocation.subcommandGroup);
  if (invocation.subcommand !== undefined) parts.push(invocation.subcommand);
  for (const [name, value] of Object.entries(invocation.options)) parts.push(`${name}:${value}`);
  return parts.join(' ');
}
