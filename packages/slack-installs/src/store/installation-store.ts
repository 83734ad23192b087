import type {
  Installation,
  InstallationQuery,
  InstallationStore as OAuthStore,
} from '@slack/oauth';

/** What Slack's OAuth flow produced for one workspace or org (the `@slack/oauth` shape). */
export type SlackOAuthInstallation = Installation;

/**
 * Which installation to fetch or delete: the workspace (`teamId`) or, for org-wide installs
 * (`isEnterpriseInstall`), the Enterprise Grid org (`enterpriseId`); `userId` adds that user's
 * own token (fetch) or names the user whose token to delete (delete).
 */
export interface InstallationLookup {
  readonly teamId?: string | undefined;
  readonly enterpriseId?: string | undefined;
  readonly isEnterpriseInstall: boolean;
  readonly userId?: string | undefined;
}

/**
 * Where installations live. Not Runtime State (ADR 0004): the store keeps application data
 * (tokens, scopes, ids) for as long as the app is installed; the runtime's State keeps only
 * coordination (the single use of an OAuth `state`, the lock of a token refresh).
 *
 * - `store` saves one installation atomically: its bot part replaces the installation's record,
 *   and the installing user's token (if any) is kept apart under that user;
 * - `fetch` resolves the installation (with `lookup.userId`'s own user token when stored, else
 *   no user token), or `undefined` when it is not installed;
 * - `delete` removes the whole installation, or only `lookup.userId`'s user token.
 *
 * Every operation rejects with `InstallationStoreError` when the store cannot be reached, and
 * `fetch` with `InstallationDecryptError` when a stored record does not open. Each takes a
 * `signal`: at its abort the call rejects with `signal.reason` (a write already sent may still
 * land).
 */
export interface InstallationStore {
  store(installation: SlackOAuthInstallation, signal?: AbortSignal): Promise<void>;
  fetch(
    lookup: InstallationLookup,
    signal?: AbortSignal,
  ): Promise<SlackOAuthInstallation | undefined>;
  delete(lookup: InstallationLookup, signal?: AbortSignal): Promise<void>;
}

/**
 * The key of an installation: `E:<enterprise id>` for org-wide installs, else `T:<team id>`.
 * Throws `TypeError` when the lookup names neither.
 */
export function installationKeyOf(lookup: InstallationLookup): string {
  if (lookup.isEnterpriseInstall) {
    if (typeof lookup.enterpriseId === 'string' && lookup.enterpriseId.length > 0) {
      return `E:${lookup.enterpriseId}`;
    }
    throw new TypeError('an org-wide installation needs enterpriseId');
  }
  if (typeof lookup.teamId === 'string' && lookup.teamId.length > 0) return `T:${lookup.teamId}`;
  throw new TypeError('an installation needs teamId (or enterpriseId with isEnterpriseInstall)');
}

/** The lookup of a stored installation. */
export function lookupOf(installation: SlackOAuthInstallation): InstallationLookup {
  return {
    teamId: installation.team?.id,
    enterpriseId: installation.enterprise?.id,
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
  };
}

/** The installation without its user token (the part kept as the installation's record). */
export function botPartOf(installation: SlackOAuthInstallation): SlackOAuthInstallation {
  const {
    token: _token,
    refreshToken: _refresh,
    expiresAt: _expires,
    ...user
  } = installation.user ?? { id: '' };
  return { ...installation, user: { ...user, token: undefined, scopes: undefined } };
}

/** The installing user's token part, when the installation carries one. */
export function userPartOf(
  installation: SlackOAuthInstallation,
): SlackOAuthInstallation['user'] | undefined {
  const user = installation.user;
  return user !== undefined && typeof user.token === 'string' && user.token.length > 0
    ? user
    : undefined;
}

/** `base` with `user` as its user part (or none). */
export function withUser(
  base: SlackOAuthInstallation,
  user: SlackOAuthInstallation['user'] | undefined,
): SlackOAuthInstallation {
  return user === undefined ? base : { ...base, user };
}

/**
 * The store as `@slack/oauth`'s `InstallationStore`, for its `InstallProvider` (which only
 * stores through it here). `fetchInstallation` throws when nothing is installed, as the library
 * expects.
 */
export function toOAuthInstallationStore(store: InstallationStore): OAuthStore {
  return {
    storeInstallation: (installation) => store.store(installation),
    fetchInstallation: async (query: InstallationQuery<boolean>) => {
      const found = await store.fetch(query);
      if (found === undefined) throw new Error('no such installation');
      return found;
    },
    deleteInstallation: (query: InstallationQuery<boolean>) => store.delete(query),
  };
}
