import type { Observer, State } from '@rt/core';
import { checkNonEmptyText, checkPositiveInteger } from '@rt/core/adapter';
import type { InstallationStore } from '../store/installation-store.js';

/** Options of `createInstallationTokens`. Units are in the names. */
export interface InstallationTokensOptions {
  /** Where installations live (the one the installer stores into). */
  readonly store: InstallationStore;
  /** The runtime's State: its lock makes one refresh per installation at a time across instances. */
  readonly state: State;
  /** The app's client id and secret, for token rotation (`oauth.v2.access` refreshes). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** Web API base URL (tests point it at a local fake). Default `https://slack.com/api/`. */
  readonly apiUrl?: string;
  /**
   * A rotating bot token is refreshed once it expires within this; keep it well below the token
   * lifetime (Slack: 12 hours). Default 2 hours (as Bolt).
   */
  readonly refreshBeforeExpiryMs?: number;
  /** Installations whose token is kept in memory; the least recently used is dropped. Default 1000. */
  readonly cacheSize?: number;
  /**
   * How long a cached token is used before the store is read again. An uninstall received by
   * this instance drops its entry at once; on other instances it lasts at most this. Default 60 s.
   */
  readonly cacheTtlMs?: number;
  /** TTL of the refresh lock (longer than one `oauth.v2.access` call). Default 15 s. */
  readonly refreshLockTtlMs?: number;
  /** How long a caller waits for another instance's refresh to land in the store. Default 5 s. */
  readonly refreshWaitMs?: number;
  /** How often it looks meanwhile. Default 100 ms. */
  readonly refreshPollMs?: number;
  /** `adapter` of the notices. Default `slack`. */
  readonly name?: string;
  /** Observers of the notices (give the runtime's). */
  readonly observers?: readonly Observer[];
  /** Epoch ms now. Default `Date.now`. */
  readonly clock?: () => number;
}

/** Defaults of every optional setting. */
export const DEFAULT_INSTALLATION_TOKENS_OPTIONS = Object.freeze({
  apiUrl: 'https://slack.com/api/',
  refreshBeforeExpiryMs: 2 * 60 * 60 * 1000,
  cacheSize: 1000,
  cacheTtlMs: 60_000,
  refreshLockTtlMs: 15_000,
  refreshWaitMs: 5000,
  refreshPollMs: 100,
  name: 'slack',
});

/** The options with defaults filled in. */
export type ResolvedTokensOptions = Required<Omit<InstallationTokensOptions, 'observers'>> & {
  readonly observers: readonly Observer[];
};

function checkState(state: unknown): State {
  const s = state as Partial<State> | undefined;
  if (typeof s?.acquireLock !== 'function' || typeof s.releaseLock !== 'function') {
    throw new TypeError('state must be a runtime State (acquireLock, releaseLock)');
  }
  return state as State;
}

/** Fills in defaults and validates; throws `TypeError`/`RangeError` naming the bad option. */
export function resolveTokensOptions(options: InstallationTokensOptions): ResolvedTokensOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createInstallationTokens needs an options object');
  }
  const d = DEFAULT_INSTALLATION_TOKENS_OPTIONS;
  if (typeof options.store?.fetch !== 'function') {
    throw new TypeError('store must be an InstallationStore');
  }
  const apiUrl = options.apiUrl ?? d.apiUrl;
  try {
    new URL(apiUrl);
  } catch {
    throw new TypeError('apiUrl must be an absolute URL');
  }
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function') throw new TypeError('clock must be a function');
  const int = (name: keyof typeof d) =>
    checkPositiveInteger(name, (options as unknown as Record<string, unknown>)[name] ?? d[name]);
  return Object.freeze({
    store: options.store,
    state: checkState(options.state),
    clientId: checkNonEmptyText('clientId', options.clientId),
    clientSecret: checkNonEmptyText('clientSecret', options.clientSecret),
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    refreshBeforeExpiryMs: int('refreshBeforeExpiryMs'),
    cacheSize: int('cacheSize'),
    cacheTtlMs: int('cacheTtlMs'),
    refreshLockTtlMs: int('refreshLockTtlMs'),
    refreshWaitMs: int('refreshWaitMs'),
    refreshPollMs: int('refreshPollMs'),
    name: checkNonEmptyText('name', options.name ?? d.name),
    observers: Object.freeze([...(options.observers ?? [])]),
    clock,
  });
}
