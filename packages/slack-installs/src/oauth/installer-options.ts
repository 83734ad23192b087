import type { Observer, State } from '@rt/core';
import { checkNonEmptyText, checkPositiveInteger } from '@rt/core/adapter';
import type { InstallationStore } from '../store/installation-store.js';
import type { SlackInstallPages } from './pages.js';

/** Options of `createSlackInstaller`. Units are in the names. */
export interface SlackInstallerOptions {
  /** The app's client id and secret (Basic Information page). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** Signs the OAuth `state` (HMAC-SHA256); at least 32 characters, kept secret. */
  readonly stateSecret: string;
  /** The runtime State: records each `state`'s single use (`markEvent`). */
  readonly state: State;
  /** Where installations are stored. */
  readonly store: InstallationStore;
  /** Bot scopes to request (`chat:write`, ...). At least one scope or user scope. */
  readonly scopes: readonly string[];
  /** User scopes to request. Default none. */
  readonly userScopes?: readonly string[];
  /** The absolute URL of the redirect path, as registered in the app's OAuth settings. */
  readonly redirectUri: string;
  /** Path of the install page. Default `/slack/install`. */
  readonly installPath?: string;
  /**
   * Redirect the install path straight to Slack (Slack's "Direct Install URL") instead of
   * serving the page with the "Add to Slack" link. Default false.
   */
  readonly directInstall?: boolean;
  /** How long an install link is accepted after the install page issued it. Default 10 minutes. */
  readonly stateTtlMs?: number;
  /** Name of the HttpOnly cookie binding the state to the browser. Default `rt-slack-oauth-state`. */
  readonly cookieName?: string;
  /** Slack's authorize page. Default `https://slack.com/oauth/v2/authorize`. */
  readonly authorizationUrl?: string;
  /** Web API base URL (tests point it at a local fake). Default `https://slack.com/api/`. */
  readonly apiUrl?: string;
  /** The pages, each overridable. */
  readonly pages?: SlackInstallPages;
  /** `adapter` of the notices. Default `slack`. */
  readonly name?: string;
  /** Observers of the notices (give the runtime's). */
  readonly observers?: readonly Observer[];
  /** Epoch ms now (the state's issue time and expiry). Default `Date.now`. */
  readonly clock?: () => number;
}

/** Defaults of every optional setting. */
export const DEFAULT_SLACK_INSTALLER_OPTIONS = Object.freeze({
  installPath: '/slack/install',
  directInstall: false,
  stateTtlMs: 10 * 60 * 1000,
  cookieName: 'rt-slack-oauth-state',
  authorizationUrl: 'https://slack.com/oauth/v2/authorize',
  apiUrl: 'https://slack.com/api/',
  name: 'slack',
});

/** The options with defaults filled in. */
export interface ResolvedInstallerOptions
  extends Required<Omit<SlackInstallerOptions, 'pages' | 'userScopes' | 'observers'>> {
  readonly userScopes: readonly string[];
  readonly pages: SlackInstallPages;
  readonly observers: readonly Observer[];
  /** The redirect URI's path, which `handle` routes to the redirect handler. */
  readonly redirectPath: string;
}

function absoluteUrl(name: string, value: unknown): URL {
  try {
    return new URL(checkNonEmptyText(name, value));
  } catch {
    throw new TypeError(`${name} must be an absolute URL`);
  }
}

function scopesOf(name: string, value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value) || value.some((s) => typeof s !== 'string' || !/^[\w:.-]+$/.test(s))) {
    throw new TypeError(`${name} must be an array of scope names`);
  }
  return Object.freeze([...value]);
}

/** Fills in defaults and validates; throws `TypeError`/`RangeError` naming the bad option. */
export function resolveInstallerOptions(options: SlackInstallerOptions): ResolvedInstallerOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createSlackInstaller needs an options object');
  }
  const d = DEFAULT_SLACK_INSTALLER_OPTIONS;
  if (typeof options.state?.markEvent !== 'function') {
    throw new TypeError('state must be a runtime State (markEvent)');
  }
  if (typeof options.store?.store !== 'function') {
    throw new TypeError('store must be an InstallationStore');
  }
  if (typeof options.stateSecret !== 'string' || options.stateSecret.length < 32) {
    throw new RangeError('stateSecret must be a string of at least 32 characters');
  }
  const scopes = scopesOf('scopes', options.scopes);
  const userScopes = scopesOf('userScopes', options.userScopes);
  if (scopes.length + userScopes.length === 0) {
    throw new TypeError('scopes or userScopes must name at least one scope');
  }
  const redirect = absoluteUrl('redirectUri', options.redirectUri);
  const installPath = checkNonEmptyText('installPath', options.installPath ?? d.installPath);
  if (!installPath.startsWith('/')) throw new TypeError('installPath must start with /');
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function') throw new TypeError('clock must be a function');
  const apiUrl = absoluteUrl('apiUrl', options.apiUrl ?? d.apiUrl).href;
  return Object.freeze({
    clientId: checkNonEmptyText('clientId', options.clientId),
    clientSecret: checkNonEmptyText('clientSecret', options.clientSecret),
    stateSecret: options.stateSecret,
    state: options.state,
    store: options.store,
    scopes,
    userScopes,
    redirectUri: redirect.href,
    redirectPath: redirect.pathname,
    installPath,
    directInstall: options.directInstall === true,
    stateTtlMs: checkPositiveInteger('stateTtlMs', options.stateTtlMs ?? d.stateTtlMs),
    cookieName: checkNonEmptyText('cookieName', options.cookieName ?? d.cookieName),
    authorizationUrl: absoluteUrl(
      'authorizationUrl',
      options.authorizationUrl ?? d.authorizationUrl,
    ).href,
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    pages: options.pages ?? {},
    name: checkNonEmptyText('name', options.name ?? d.name),
    observers: Object.freeze([...(options.observers ?? [])]),
    clock,
  });
}
