import { PermissionFlagsBits } from 'discord-api-types/v10';

/** A permission: a flag name of `PermissionFlagsBits` (`SendMessages`) or its bit. */
export type DiscordPermission = keyof typeof PermissionFlagsBits | bigint;

/** Options of `discordInstallUrl`. */
export interface DiscordInstallLinkOptions {
  /** The application (client) id. */
  readonly clientId: string;
  /** OAuth2 scopes. Default `['bot', 'applications.commands']`. */
  readonly scopes?: readonly string[];
  /** Permissions the bot asks for in the guild (with the `bot` scope). Default none. */
  readonly permissions?: readonly DiscordPermission[] | bigint;
  /** 0: install to a guild (default when unset: Discord asks), 1: install to the user. */
  readonly integrationType?: 0 | 1;
  /** Preselect this guild. */
  readonly guildId?: string;
  /** With `guildId`: do not let the user pick another guild. */
  readonly disableGuildSelect?: boolean;
  /** For the authorization code grant: the redirect URI (and then `response_type=code`). */
  readonly redirectUri?: string;
  /** Opaque `state` for the redirect. */
  readonly state?: string;
}

/** The permission integer (as a decimal string) of a list of permissions. */
export function permissionBits(permissions: readonly DiscordPermission[] | bigint): string {
  if (typeof permissions === 'bigint') {
    if (permissions < 0n) throw new RangeError('permissions must not be negative');
    return permissions.toString();
  }
  let bits = 0n;
  for (const permission of permissions) {
    if (typeof permission === 'bigint') bits |= permission;
    else {
      const bit = PermissionFlagsBits[permission];
      if (bit === undefined) throw new TypeError(`unknown permission "${String(permission)}"`);
      bits |= bit;
    }
  }
  return bits.toString();
}

/**
 * The install link of a Discord app (`https://discord.com/oauth2/authorize?...`): client id,
 * scopes, the permission integer, and optionally the integration type, a preselected guild and a
 * redirect. Throws `TypeError` naming a bad option (no client id, an unknown permission name,
 * permissions without the `bot` scope).
 */
export function discordInstallUrl(options: DiscordInstallLinkOptions): string {
  if (typeof options.clientId !== 'string' || !/^\d+$/.test(options.clientId)) {
    throw new TypeError('clientId must be a Discord snowflake');
  }
  const scopes = options.scopes ?? ['bot', 'applications.commands'];
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((s) => !/^[\w.]+$/.test(s))) {
    throw new TypeError('scopes must be a non-empty array of scope names');
  }
  const url = new URL('https://discord.com/oauth2/authorize');
  url.searchParams.set('client_id', options.clientId);
  url.searchParams.set('scope', scopes.join(' '));
  if (options.permissions !== undefined) {
    if (!scopes.includes('bot')) throw new TypeError('permissions need the "bot" scope');
    url.searchParams.set('permissions', permissionBits(options.permissions));
  }
  if (options.integrationType !== undefined) {
    if (options.integrationType !== 0 && options.integrationType !== 1) {
      throw new TypeError('integrationType must be 0 (guild) or 1 (user)');
    }
    url.searchParams.set('integration_type', String(options.integrationType));
  }
  if (options.guildId !== undefined) {
    url.searchParams.set('guild_id', options.guildId);
    if (options.disableGuildSelect === true) url.searchParams.set('disable_guild_select', 'true');
  }
  if (options.redirectUri !== undefined) {
    url.searchParams.set('redirect_uri', new URL(options.redirectUri).href);
    url.searchParams.set('response_type', 'code');
  }
  if (options.state !== undefined) url.searchParams.set('state', options.state);
  return url.href;
}
