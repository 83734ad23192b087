import type { REST } from '@discordjs/rest';
import { type CommandDiff, type DiscordCommandDefinition, diffCommands } from './command-diff.js';

/** Options of `registerCommands`. */
export interface RegisterCommandsOptions {
  /** The application (client) id. */
  readonly applicationId: string;
  /** Register in this guild (appears at once) instead of globally; unset or undefined: global. */
  readonly guildId?: string | undefined;
  /**
   * The commands, the same definitions the routes are registered from (`onCommand(name, ...)`).
   * The whole list replaces what is registered: commands not in it are deleted.
   */
  readonly commands: readonly DiscordCommandDefinition[];
  /** Compute and return the diff without writing anything. Default (unset or undefined) false. */
  readonly dryRun?: boolean | undefined;
  /** Aborts the REST calls; unset or undefined: none. */
  readonly signal?: AbortSignal | undefined;
}

/** What `registerCommands` found and did. */
export interface RegisterCommandsResult extends CommandDiff {
  /** True when it overwrote the commands (not on a dry run, nor when nothing changed). */
  readonly written: boolean;
}

function checkDefinitions(commands: unknown): readonly DiscordCommandDefinition[] {
  if (!Array.isArray(commands)) throw new TypeError('commands must be an array of definitions');
  const seen = new Set<string>();
  for (const [index, command] of commands.entries()) {
    const name = (command as { name?: unknown })?.name;
    if (typeof name !== 'string' || !/^[-_\p{L}\p{N}]{1,32}$/u.test(name)) {
      throw new TypeError(`commands[${index}].name must be 1-32 letters, digits, - or _`);
    }
    const key = `${(command as { type?: unknown }).type ?? 1}:${name}`;
    if (seen.has(key)) throw new TypeError(`commands[${index}] repeats "${name}"`);
    seen.add(key);
  }
  return commands as readonly DiscordCommandDefinition[];
}

/**
 * Registers the application's commands through `@discordjs/rest` with one bulk overwrite
 * (`PUT /applications/{id}/commands`, or the guild's), global or in `guildId`. Idempotent: it
 * reads what is registered first and writes only when something differs (so re-running it at
 * every deploy costs one GET and never bumps command versions); `dryRun` returns the diff and
 * writes nothing. Rejects with the REST client's errors (`DiscordAPIError`, ...) and
 * `TypeError` for a bad definition list.
 */
export async function registerCommands(
  rest: Pick<REST, 'get' | 'put'>,
  options: RegisterCommandsOptions,
): Promise<RegisterCommandsResult> {
  const commands = checkDefinitions(options.commands);
  if (typeof options.applicationId !== 'string' || !/^\d+$/.test(options.applicationId)) {
    throw new TypeError('applicationId must be a Discord snowflake');
  }
  if (options.guildId !== undefined && !/^\d+$/.test(options.guildId)) {
    throw new TypeError('guildId must be a Discord snowflake');
  }
  const route =
    options.guildId === undefined
      ? (`/applications/${options.applicationId}/commands` as const)
      : (`/applications/${options.applicationId}/guilds/${options.guildId}/commands` as const);
  const request = options.signal === undefined ? {} : { signal: options.signal };
  const current = (await rest.get(route, request)) as Record<string, unknown>[];
  const diff = diffCommands(Array.isArray(current) ? current : [], commands);
  const unchanged = diff.added.length + diff.changed.length + diff.removed.length === 0;
  if (options.dryRun === true || unchanged) return { ...diff, written: false };
  await rest.put(route, { ...request, body: commands });
  return { ...diff, written: true };
}
