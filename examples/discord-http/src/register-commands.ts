import {
  type DiscordAdapter,
  discordInstallUrl,
  type RegisterCommandsResult,
  registerCommands as register,
} from '@rt/adapter-discord';
import { COMMANDS } from './commands.js';

/**
 * Registers `COMMANDS` (the definitions the handlers' `onCommand` names come from) with the
 * adapter kit's `registerCommands`: one bulk overwrite, global or in `guildId`, written only when
 * something differs; `dryRun` only reports the diff.
 */
export function registerCommands(
  discord: DiscordAdapter,
  applicationId: string,
  options: { readonly guildId?: string; readonly dryRun?: boolean } = {},
): Promise<RegisterCommandsResult> {
  return register(discord.rest, { applicationId, commands: COMMANDS, ...options });
}

/** The link that installs the bot in a server with the commands and the permissions it uses. */
export function installLink(applicationId: string): string {
  return discordInstallUrl({
    clientId: applicationId,
    scopes: ['bot', 'applications.commands'],
    permissions: ['SendMessages', 'SendMessagesInThreads', 'AddReactions', 'ReadMessageHistory'],
  });
}
