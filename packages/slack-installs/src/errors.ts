/**
 * Every error @rt/slack-installs throws. Each carries a stable, readonly string `code` (branch on
 * it with core's `hasErrorCode`). No message ever contains a token, a refresh token, the client
 * secret, the state secret or an encryption key.
 */
import { RtError } from '@rt/core';

/** Base class of every error of this package. */
export class SlackInstallsError extends RtError {}

/**
 * A stored record could not be decrypted: it was altered at rest, written under a key that is no
 * longer configured (`keyId`), or is not a record of this store. Never a garbled token: the
 * record is refused whole.
 */
export class InstallationDecryptError extends SlackInstallsError {
  /** The key id the record names, when it could be read. */
  readonly keyId: string | undefined;

  constructor(message: string, keyId?: string) {
    super('RT_INSTALL_DECRYPT', message);
    this.keyId = keyId;
  }
}

/** The installation store could not be reached or answered unexpectedly (see `cause`). */
export class InstallationStoreError extends SlackInstallsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_INSTALL_STORE', message, options);
  }
}

/**
 * A bot token due for rotation could not be refreshed: `oauth.v2.access` refused the refresh
 * token (`slackError`), failed, or another instance's refresh did not finish in time, and the
 * current token has expired.
 */
export class InstallationRefreshError extends SlackInstallsError {
  /** Slack's `error` code when `oauth.v2.access` answered `ok: false`. */
  readonly slackError: string | undefined;

  constructor(message: string, slackError?: string) {
    super('RT_INSTALL_REFRESH', message);
    this.slackError = slackError;
  }
}

/**
 * Why an install attempt failed at the redirect (or the install path):
 * - `access_denied`: the user cancelled on Slack's consent page;
 * - `code_missing`: the redirect carried no `code`;
 * - `state_missing`: the redirect carried no `state`;
 * - `state_invalid`: the `state` is malformed or its signature is wrong (tampered, another app's);
 * - `state_expired`: the `state` is older than `stateTtlMs`;
 * - `state_replayed`: the `state` was already used once;
 * - `state_not_for_browser`: the browser does not hold the state cookie the install path set;
 * - `state_unavailable`: the runtime State could not record the state's single use;
 * - `exchange_failed`: `oauth.v2.access` (or `auth.test`) refused or failed (`slackError`);
 * - `store_failed`: the installation store could not save the installation;
 * - `unexpected`: anything else (a bug).
 */
export type InstallFailureReason =
  | 'access_denied'
  | 'code_missing'
  | 'state_missing'
  | 'state_invalid'
  | 'state_expired'
  | 'state_replayed'
  | 'state_not_for_browser'
  | 'state_unavailable'
  | 'exchange_failed'
  | 'store_failed'
  | 'unexpected';

/** An install attempt failed; nothing was stored. `reason` says why. */
export class InstallFlowError extends SlackInstallsError {
  readonly reason: InstallFailureReason;
  /** Slack's `error` code for `exchange_failed`, when Slack answered `ok: false`. */
  readonly slackError: string | undefined;

  constructor(reason: InstallFailureReason, message: string, slackError?: string) {
    super('RT_INSTALL_FLOW', message);
    this.reason = reason;
    this.slackError = slackError;
  }
}
