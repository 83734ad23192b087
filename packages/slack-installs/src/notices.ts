import type { Observer } from '@rt/core';
import { adapterNotice } from '@rt/core/adapter';

/**
 * Every `adapter_notice` name this package emits (to the `observers` given to the installer and
 * the token source; `adapter` is their `name`, default `slack`). No detail ever holds a token or
 * a secret.
 * - `install_completed`: an installation was stored (`teamId`, `enterpriseId`, `isEnterpriseInstall`);
 * - `install_failed`: an install attempt failed and nothing was stored (`reason`, `slackError`);
 * - `token_refreshed`: a bot token was rotated through `oauth.v2.access` (`installation`);
 * - `token_refresh_failed`: a refresh failed (`installation`, `slackError`, `stillValid`: whether
 *   the current token is still used until it expires);
 * - `installation_revoked`: `app_uninstalled` or `tokens_revoked` deleted what Slack revoked
 *   (`installation`, `kind`, `users`).
 */
export type SlackInstallNoticeName =
  | 'install_completed'
  | 'install_failed'
  | 'token_refreshed'
  | 'token_refresh_failed'
  | 'installation_revoked';

/** Emits one notice to every observer; an observer that throws is ignored. */
export function emitInstallNotice(
  observers: readonly Observer[],
  adapter: string,
  name: SlackInstallNoticeName,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
): void {
  if (observers.length === 0) return;
  const notice = adapterNotice(adapter, name, detail, error);
  for (const observer of observers) {
    try {
      observer(notice);
    } catch {
      // Observation never breaks an install or a delivery.
    }
  }
}
