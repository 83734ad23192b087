import type { InstallFailureReason, InstallFlowError } from '../errors.js';

/** What the success page may show about the new installation (no token). */
export interface InstalledSummary {
  readonly teamId: string | undefined;
  readonly teamName: string | undefined;
  readonly enterpriseId: string | undefined;
  readonly enterpriseName: string | undefined;
  readonly isEnterpriseInstall: boolean;
}

/**
 * The HTML pages of the install flow, each overridable (`SlackInstallerOptions.pages`). Each
 * returns a whole HTML document; what they are given never holds a token or secret.
 */
export interface SlackInstallPages {
  /** The install path's page with the "Add to Slack" link to `authorizeUrl` (not with `directInstall`). */
  readonly install?: (authorizeUrl: string) => string;
  /** After an installation was stored. */
  readonly success?: (installed: InstalledSummary) => string;
  /** After a failed attempt (nothing stored); `error.reason` says why. */
  readonly failure?: (error: InstallFlowError) => string;
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

/** The default install page: one "Add to Slack" link. */
export function defaultInstallPage(authorizeUrl: string): string {
  return page(
    'Add to Slack',
    `<h1>Install this app</h1><p><a id="add-to-slack" href="${escapeHtml(authorizeUrl)}">Add to Slack</a></p>`,
  );
}

/** The default success page, naming the workspace or org. */
export function defaultSuccessPage(installed: InstalledSummary): string {
  const where = installed.isEnterpriseInstall
    ? `the ${installed.enterpriseName ?? installed.enterpriseId ?? ''} organization`
    : `${installed.teamName ?? installed.teamId ?? 'your'} workspace`;
  return page(
    'Installed',
    `<h1 id="installed">Installed</h1><p>The app is installed in ${escapeHtml(where)}. You can close this page.</p>`,
  );
}

const FAILURE_TEXT: Readonly<Record<InstallFailureReason, string>> = Object.freeze({
  access_denied: 'The installation was cancelled.',
  code_missing: 'Slack did not send an authorization code.',
  state_missing: 'The install link is incomplete.',
  state_invalid: 'The install link is not valid.',
  state_expired: 'The install link has expired.',
  state_replayed: 'This install link was already used.',
  state_not_for_browser: 'This install was started in another browser (or its cookie is gone).',
  state_unavailable: 'The installation could not be checked right now.',
  exchange_failed: 'Slack refused the installation.',
  store_failed: 'The installation could not be saved right now.',
  unexpected: 'Something went wrong.',
});

/** The default failure page: what went wrong in one sentence, and how to retry. */
export function defaultFailurePage(error: InstallFlowError): string {
  return page(
    'Installation failed',
    `<h1 id="install-failed">Installation failed</h1><p>${escapeHtml(FAILURE_TEXT[error.reason])} Nothing was installed. Please start the installation again.</p><p>Reason: <code>${escapeHtml(error.reason)}</code></p>`,
  );
}

/** The HTTP status of a failed attempt: 400 for the browser's side, 502 for Slack's, 503 for ours. */
export function failureStatusOf(reason: InstallFailureReason): number {
  switch (reason) {
    case 'exchange_failed':
      return 502;
    case 'store_failed':
    case 'state_unavailable':
      return 503;
    case 'unexpected':
      return 500;
    default:
      return 400;
  }
}
