import type { DiscordAdapter } from '@rt/adapter-discord';
import { COMMANDS } from './commands.js';

/**
 * Overwrites the application's commands with `COMMANDS` through the adapter's REST client (bulk
 * overwrite: commands not listed are deleted), in `guildId` when given. Resolves what Discord
 * registered.
 */
export async function registerCommands(
  discord: DiscordAdapter,
  applicationId: string,
  guildId?: string,
): Promise<{ readonly id: string; readonly name: string }[]> {
  const route =
    guildId === undefined
      ? (`/applications/${applicationId}/commands` as const)
      : (`/applications/${applicationId}/guilds/${guildId}/commands` as const);
  return (await discord.rest.put(route, { body: COMMANDS })) as { id: string; name: string }[];
}
