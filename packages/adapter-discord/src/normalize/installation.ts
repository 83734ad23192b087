import { ApplicationIntegrationType } from 'discord-api-types/v10';
import type { DiscordInteraction } from '../parse/payload-types.js';

/** Who installed the app that an interaction reached, as Discord reports it. */
export interface DiscordInstallation {
  readonly applicationId: string;
  /** The guild the interaction happened in; absent in DMs and group DMs. */
  readonly guildId?: string;
  /** The user whose user install authorized it (`authorizing_integration_owners["1"]`). */
  readonly userId?: string;
}

function snowflake(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The installation facts of an interaction. */
export function installationOf(interaction: DiscordInteraction): DiscordInstallation {
  const owners = (interaction as { authorizing_integration_owners?: Record<string, unknown> })
    .authorizing_integration_owners;
  const guildId = snowflake(interaction.guild_id);
  const userId = snowflake(owners?.[ApplicationIntegrationType.UserInstall]);
  // Built by assignment, not spreads: one object, and a field absent rather than undefined.
  const installation: { applicationId: string; guildId?: string; userId?: string } = {
    applicationId: interaction.application_id,
  };
  if (guildId !== undefined) installation.guildId = guildId;
  if (userId !== undefined) installation.userId = userId;
  return installation;
}

/**
 * The tenant of an interaction (docs/contract.md §9.2, ADR 0003), always non-empty:
 * - in a guild: the `guild_id`, whoever authorized the app there (a guild install, or a user
 *   install used in that guild), so one channel's conversations always share one tenant and lock
 *   keys never split by who installed the app;
 * - outside guilds, for a user-installed app: `user:<id>` of the authorizing user
 *   (`authorizing_integration_owners["1"]`): each user install is its own installation;
 * - outside guilds otherwise (the bot's own DMs): `dm:<application_id>`.
 */
export function tenantOf(installation: DiscordInstallation): string {
  if (installation.guildId !== undefined) return installation.guildId;
  if (installation.userId !== undefined) return `user:${installation.userId}`;
  return `dm:${installation.applicationId}`;
}
