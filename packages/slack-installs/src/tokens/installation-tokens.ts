import {
  type SlackInstallation,
  type SlackInstallationSource,
  type SlackRevocation,
  SlackUnknownInstallationError,
} from '@rt/adapter-slack';
import type { Lease } from '@rt/core';
import { abortable, delay } from '@rt/core/adapter';
import type { WebClient } from '@slack/web-api';
import { InstallationRefreshError } from '../errors.js';
import { emitInstallNotice, type SlackInstallNoticeName } from '../notices.js';
import {
  type InstallationLookup,
  installationKeyOf,
  type SlackOAuthInstallation,
} from '../store/installation-store.js';
import { oauthClient, refreshBotToken, slackErrorOf } from './oauth-exchange.js';
import { TokenCache } from './token-cache.js';
import {
  type InstallationTokensOptions,
  type ResolvedTokensOptions,
  resolveTokensOptions,
} from './token-options.js';

/** The store lookup of a delivery's installation (org-wide installs are keyed on the org). */
export function lookupOfInstallation(installation: SlackInstallation): InstallationLookup {
  return {
    teamId: installation.teamId,
    enterpriseId: installation.enterpriseId,
    isEnterpriseInstall: installation.isEnterpriseInstall,
  };
}

function expiresAtMsOf(record: SlackOAuthInstallation): number | undefined {
  const seconds = record.bot?.expiresAt;
  return typeof seconds === 'number' ? seconds * 1000 : undefined;
}

/**
 * The adapter's token source over an installation store (`SlackAdapterOptions.installations`):
 * bot tokens read from the store, cached (bounded, `cacheTtlMs`), rotated before they expire,
 * forgotten at uninstall or revocation. Create it with `createInstallationTokens`.
 *
 * Rotation: a token expiring within `refreshBeforeExpiryMs` is refreshed through
 * `oauth.v2.access` by one caller at a time per installation across instances (the State's lock
 * `slack-installs:refresh:<name>:<installation>`); the lock holder reads the store again first (a
 * refresh that just landed is used, not repeated), stores the new token, then releases. Callers
 * that find the lock held wait up to `refreshWaitMs` for the new token to appear in the store.
 * When a refresh fails or does not land in time, the current token is still used while it has not
 * expired (a `token_refresh_failed` notice says so); once expired, `botToken` rejects with
 * `InstallationRefreshError` and the adapter refuses the installation's deliveries as unavailable
 * (Slack redelivers events) until a refresh succeeds.
 */
export class InstallationTokens implements SlackInstallationSource {
  readonly #options: ResolvedTokensOptions;
  readonly #cache: TokenCache;
  readonly #loading = new Map<string, Promise<string>>();
  #client: WebClient | undefined;

  constructor(options: InstallationTokensOptions) {
    this.#options = resolveTokensOptions(options);
    this.#cache = new TokenCache(this.#options.cacheSize);
  }

  /** Installations whose token is cached now. */
  get cachedCount(): number {
    return this.#cache.size;
  }

  #notice(name: SlackInstallNoticeName, detail: Record<string, unknown>, error?: unknown): void {
    emitInstallNotice(this.#options.observers, this.#options.name, name, detail, error);
  }

  #due(expiresAtMs: number | undefined): boolean {
    return (
      expiresAtMs !== undefined &&
      expiresAtMs - this.#options.clock() <= this.#options.refreshBeforeExpiryMs
    );
  }

  /**
   * The installation's bot token (see the class comment for rotation). Rejects with
   * `SlackUnknownInstallationError` when the store has no bot token for it,
   * `InstallationRefreshError` when its token expired and could not be refreshed, the store's
   * errors (`InstallationStoreError`, `InstallationDecryptError`) as they are, and `signal.reason`
   * at its abort (a load shared with other callers goes on for them).
   */
  async botToken(installation: SlackInstallation, signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted();
    let key: string;
    try {
      key = installationKeyOf(lookupOfInstallation(installation));
    } catch {
      throw new SlackUnknownInstallationError('the delivery names no installation');
    }
    const cached = this.#cache.get(key);
    if (
      cached !== undefined &&
      this.#options.clock() < cached.cachedUntilMs &&
      !this.#due(cached.expiresAtMs)
    ) {
      return cached.token;
    }
    let loading = this.#loading.get(key);
    if (loading === undefined) {
      loading = this.#load(key, lookupOfInstallation(installation)).finally(() =>
        this.#loading.delete(key),
      );
      this.#loading.set(key, loading);
    }
    if (signal === undefined) return loading;
    return abortable(loading, signal);
  }

  async #load(key: string, lookup: InstallationLookup): Promise<string> {
    let record = await this.#options.store.fetch(lookup);
    const token = record?.bot?.token;
    if (record === undefined || typeof token !== 'string' || token.length === 0) {
      this.#cache.delete(key);
      throw new SlackUnknownInstallationError(`installation ${key} is not installed`);
    }
    if (this.#due(expiresAtMsOf(record))) record = await this.#refresh(key, lookup, record);
    const bot = record.bot as NonNullable<SlackOAuthInstallation['bot']>;
    this.#cache.set(key, {
      token: bot.token,
      expiresAtMs: expiresAtMsOf(record),
      cachedUntilMs: this.#options.clock() + this.#options.cacheTtlMs,
    });
    return bot.token;
  }

  /** The record with a fresh token, or the current one while it is still valid. */
  async #refresh(
    key: string,
    lookup: InstallationLookup,
    record: SlackOAuthInstallation,
  ): Promise<SlackOAuthInstallation> {
    const { state, name, refreshLockTtlMs } = this.#options;
    const lease = await state.acquireLock(
      `slack-installs:refresh:${name}:${key}`,
      refreshLockTtlMs,
    );
    if (lease === null) return this.#awaitOtherRefresh(key, lookup, record);
    try {
      return await this.#refreshHolding(key, lookup, record.bot?.token);
    } catch (error) {
      return this.#keepOrFail(key, record, error);
    } finally {
      await this.#release(lease);
    }
  }

  async #release(lease: Lease): Promise<void> {
    try {
      await this.#options.state.releaseLock(lease);
    } catch {
      // The lease expires on its own after refreshLockTtlMs.
    }
  }

  async #refreshHolding(
    key: string,
    lookup: InstallationLookup,
    seenToken: string | undefined,
  ): Promise<SlackOAuthInstallation> {
    const fresh = await this.#options.store.fetch(lookup);
    const bot = fresh?.bot;
    if (fresh === undefined || bot === undefined) {
      throw new SlackUnknownInstallationError(`installation ${key} is not installed`);
    }
    // Another instance refreshed since this caller read the store: use its token.
    if (bot.token !== seenToken || !this.#due(expiresAtMsOf(fresh))) return fresh;
    if (typeof bot.refreshToken !== 'string' || bot.refreshToken.length === 0) {
      throw new InstallationRefreshError(
        `installation ${key} has an expiring token and no refresh token`,
      );
    }
    this.#client ??= oauthClient(this.#options.apiUrl);
    let refreshed: Awaited<ReturnType<typeof refreshBotToken>>;
    try {
      refreshed = await refreshBotToken(this.#client, this.#options, bot.refreshToken);
    } catch (error) {
      const slackError = slackErrorOf(error);
      throw new InstallationRefreshError(
        `oauth.v2.access refused the refresh of installation ${key}${slackError ? `: ${slackError}` : ''}`,
        slackError,
      );
    }
    const updated: SlackOAuthInstallation = {
      ...fresh,
      bot: {
        ...bot,
        token: refreshed.accessToken,
        refreshToken: refreshed.refreshToken,
        expiresAt: Math.floor(this.#options.clock() / 1000) + refreshed.expiresIn,
      },
    };
    await this.#options.store.store(updated);
    this.#notice('token_refreshed', { installation: key });
    return updated;
  }

  #keepOrFail(key: string, record: SlackOAuthInstallation, error: unknown): SlackOAuthInstallation {
    if (error instanceof SlackUnknownInstallationError) throw error;
    const expiresAtMs = expiresAtMsOf(record);
    const stillValid = expiresAtMs !== undefined && expiresAtMs > this.#options.clock();
    this.#notice(
      'token_refresh_failed',
      {
        installation: key,
        stillValid,
        ...(error instanceof InstallationRefreshError ? { slackError: error.slackError } : {}),
      },
      error instanceof InstallationRefreshError ? error : undefined,
    );
    if (stillValid) return record;
    throw error instanceof InstallationRefreshError
      ? error
      : new InstallationRefreshError(`the refresh of installation ${key} failed`);
  }

  async #awaitOtherRefresh(
    key: string,
    lookup: InstallationLookup,
    record: SlackOAuthInstallation,
  ): Promise<SlackOAuthInstallation> {
    const { refreshWaitMs, refreshPollMs } = this.#options;
    // Counted in polls, not on the clock: an injected clock may stand still.
    for (let waited = 0; waited < refreshWaitMs; waited += refreshPollMs) {
      await delay(refreshPollMs);
      const fresh = await this.#options.store.fetch(lookup);
      if (fresh?.bot === undefined) {
        throw new SlackUnknownInstallationError(`installation ${key} is not installed`);
      }
      if (fresh.bot.token !== record.bot?.token) return fresh;
    }
    return this.#keepOrFail(
      key,
      record,
      new InstallationRefreshError(
        `another instance's refresh of installation ${key} did not land in time`,
      ),
    );
  }

  /**
   * Deletes what Slack revoked: the whole installation at `app_uninstalled` or when its bot
   * token was revoked, else each revoked user's token; drops the cached token at once.
   */
  async revoke(
    installation: SlackInstallation,
    revocation: SlackRevocation,
    signal?: AbortSignal,
  ): Promise<void> {
    const lookup = lookupOfInstallation(installation);
    let key: string;
    try {
      key = installationKeyOf(lookup);
    } catch {
      return;
    }
    this.#cache.delete(key);
    const whole = revocation.kind === 'app_uninstalled' || revocation.botUserIds.length > 0;
    if (whole) {
      await this.#options.store.delete(lookup, signal);
    } else {
      for (const userId of revocation.userIds) {
        await this.#options.store.delete({ ...lookup, userId }, signal);
      }
    }
    this.#cache.delete(key);
    this.#notice('installation_revoked', {
      installation: key,
      kind: revocation.kind,
      users: whole ? 'all' : revocation.userIds.length,
    });
  }
}

/** Creates the token source; validates at once (`TypeError`/`RangeError` naming the option). */
export function createInstallationTokens(options: InstallationTokensOptions): InstallationTokens {
  return new InstallationTokens(options);
}
