import { WebClient, type WebClientOptions } from '@slack/web-api';
import { silentLogger } from '../http/silent-logger.js';

/** What a token refresh through `oauth.v2.access` gives back. */
export interface RefreshedToken {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Seconds from now. */
  readonly expiresIn: number;
}

/** The Slack error code (`ok: false`) of a Web API error, if Slack answered one. */
export function slackErrorOf(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** The `WebClient` options this package calls Slack with: no retries, a 10 s timeout, silent. */
export function oauthClientOptions(apiUrl: string): WebClientOptions {
  return {
    slackApiUrl: apiUrl,
    retryConfig: { retries: 0 },
    timeout: 10_000,
    logger: silentLogger(),
  };
}

/**
 * Rotates a bot token: `oauth.v2.access` with `grant_type=refresh_token` on `@slack/web-api`.
 * Rejects with the library's error (use `slackErrorOf`; never log it whole: its request may carry
 * the client secret) or a `TypeError` when the answer lacks a field.
 */
export async function refreshBotToken(
  client: WebClient,
  credentials: { readonly clientId: string; readonly clientSecret: string },
  refreshToken: string,
): Promise<RefreshedToken> {
  const answer = await client.oauth.v2.access({
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
  const { access_token, refresh_token, expires_in } = answer as {
    access_token?: unknown;
    refresh_token?: unknown;
    expires_in?: unknown;
  };
  if (
    typeof access_token !== 'string' ||
    typeof refresh_token !== 'string' ||
    typeof expires_in !== 'number'
  ) {
    throw new TypeError(
      'oauth.v2.access answered a refresh without a token, refresh token or expiry',
    );
  }
  return { accessToken: access_token, refreshToken: refresh_token, expiresIn: expires_in };
}

/** A `WebClient` without a token, for OAuth calls. */
export function oauthClient(apiUrl: string): WebClient {
  return new WebClient(undefined, oauthClientOptions(apiUrl));
}
