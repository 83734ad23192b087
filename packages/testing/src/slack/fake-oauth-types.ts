/** A workspace (or Enterprise Grid org) the fake consent page offers to install into. */
export interface FakeWorkspace {
  /** Workspace id (`T...`). For an org-wide install, the org's primary workspace (not reported). */
  readonly teamId: string;
  readonly teamName?: string;
  /** Org id (`E...`) for workspaces in an Enterprise Grid org. */
  readonly enterpriseId?: string;
  readonly enterpriseName?: string;
  /** Install org-wide: `team` is null and the installation is keyed on `enterpriseId`. */
  readonly isEnterpriseInstall?: boolean;
  /** The installing user. Default `U<teamId>`. */
  readonly userId?: string;
  /** The bot user of the app in this workspace. Default `UB<teamId>`. */
  readonly botUserId?: string;
}

/** Options of the fake OAuth (`FakeSlackApiOptions.oauth`). */
export interface FakeSlackOAuthOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** What the consent page offers, one "Allow" link each. */
  readonly workspaces: readonly FakeWorkspace[];
  /**
   * Token rotation on: access answers carry `refresh_token` and `expires_in`, and refresh grants
   * (`grant_type=refresh_token`) are answered. Unset: long-lived tokens.
   */
  readonly tokenRotation?: { readonly expiresInS: number };
  /** The app id. Default `A0FAKEAPP`. */
  readonly appId?: string;
  /** Epoch ms now (token expiry). Default `Date.now`. */
  readonly clock?: () => number;
}

/** A bot token the fake issued. */
export interface FakeIssuedToken {
  readonly token: string;
  /** `T:<team>` or `E:<enterprise>` for org-wide installs. */
  readonly installation: string;
  readonly kind: 'bot' | 'user';
  /** Epoch ms; `undefined` without rotation. */
  readonly expiresAtMs: number | undefined;
  revoked: boolean;
}

/** The fake's OAuth side: its authorize URL and what it issued. */
export interface FakeSlackOAuth {
  /** Slack's authorize page on the fake (`authorizationUrl` of the installer). */
  readonly authorizeUrl: string;
  /** Every token issued so far, in order. */
  readonly issued: readonly FakeIssuedToken[];
  /** The newest live bot token of an installation (`T:<team>` / `E:<enterprise>`). */
  botTokenOf(installation: string): string | undefined;
  /** How many refresh grants were answered successfully. */
  readonly refreshCount: number;
  /** Makes every token of an installation invalid (`token_revoked`), as an uninstall does. */
  revokeInstallation(installation: string): void;
}
