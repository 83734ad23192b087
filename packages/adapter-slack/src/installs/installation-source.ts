import type { SlackInstallation } from '../normalize/installation.js';

/**
 * What Slack said an installation lost: the whole app (`app_uninstalled`), or some tokens
 * (`tokens_revoked`: `botUserIds` lists revoked bot tokens by their bot user, `userIds` revoked
 * user tokens).
 */
export type SlackRevocation =
  | { readonly kind: 'app_uninstalled' }
  | {
      readonly kind: 'tokens_revoked';
      readonly botUserIds: readonly string[];
      readonly userIds: readonly string[];
    };

/**
 * Where a multi-workspace adapter gets its installations' tokens (`SlackAdapterOptions.installations`;
 * `@rt/slack-installs` implements it over an installation store). The adapter calls `botToken`
 * before it dispatches a delivery (so a delivery of an unknown or unusable installation is
 * answered before any handler runs) and for every outbound call, and `revoke` when Slack sends
 * `app_uninstalled` or `tokens_revoked`, before the event is dispatched.
 */
export interface SlackInstallationSource {
  /**
   * The installation's current bot token. Rejects with `SlackUnknownInstallationError` when the
   * installation is not known (never installed, uninstalled, bot token revoked); with any other
   * error when it cannot tell now (store down, token refresh failing): the adapter then refuses
   * the delivery as temporarily unavailable, so Slack redelivers events. At `signal`'s abort it
   * rejects with `signal.reason`.
   */
  botToken(installation: SlackInstallation, signal?: AbortSignal): Promise<string>;
  /**
   * Forgets what Slack revoked (deletes the installation at `app_uninstalled`, the revoked tokens
   * at `tokens_revoked`) and drops every cached token of it at once. A rejection makes the adapter
   * ask Slack to redeliver the event, so the deletion is tried again.
   */
  revoke(
    installation: SlackInstallation,
    revocation: SlackRevocation,
    signal?: AbortSignal,
  ): Promise<void>;
}
