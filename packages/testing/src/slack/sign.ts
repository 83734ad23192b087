import { createHmac } from 'node:crypto';
import type { SlackTestPayload } from './payload.js';

/** Headers Slack signs a request with. */
export interface SlackSignatureHeaders {
  readonly 'x-slack-request-timestamp': string;
  readonly 'x-slack-signature': string;
}

/** Options of `SlackSigner.request` (as `DiscordRequestOptions`). */
export interface SlackRequestOptions {
  /** Default `http://127.0.0.1/slack/events`. */
  readonly url?: string;
  /** Epoch seconds of the signature. Default: now. */
  readonly timestamp?: number;
  /** Extra headers (`x-slack-retry-num`, ...); they override the signature headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Send without any signature headers. */
  readonly unsigned?: boolean;
}

/** A signing secret that signs requests the way Slack does (the shape of `DiscordSigner`). */
export interface SlackSigner {
  /** The signing secret: the adapter's `signingSecret`. */
  readonly secret: string;
  /**
   * Signs `body`: `x-slack-signature: v0=<hex HMAC-SHA256 of "v0:{timestamp}:{body}">` and
   * `x-slack-request-timestamp: {timestamp}` (epoch seconds, default now). `version` (default
   * `v0`, the only one Slack defines) exists to test refusal of others.
   */
  sign(body: string, timestamp?: number, version?: string): SlackSignatureHeaders;
  /** A `Request` as Slack sends it: POST, the payload's content type, signed. */
  request(payload: SlackTestPayload, options?: SlackRequestOptions): Request;
}

/**
 * Creates a signer for `secret` (a non-empty string, else `TypeError`). Two signers with
 * different secrets are each other's "wrong secret" in verification tests.
 */
export function createSlackSigner(secret: string): SlackSigner {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('createSlackSigner: secret must be a non-empty string');
  }
  const sign = (body: string, timestamp?: number, version = 'v0'): SlackSignatureHeaders => {
    const ts = String(timestamp ?? Math.floor(Date.now() / 1000));
    const digest = createHmac('sha256', secret)
      .update(`${version}:${ts}:${body}`, 'utf8')
      .digest('hex');
    return { 'x-slack-request-timestamp': ts, 'x-slack-signature': `${version}=${digest}` };
  };
  return {
    secret,
    sign,
    request(payload, options = {}) {
      const headers: Record<string, string> = {
        'content-type': payload.contentType,
        ...(options.unsigned === true ? {} : sign(payload.body, options.timestamp)),
        ...options.headers,
      };
      return new Request(options.url ?? 'http://127.0.0.1/slack/events', {
        method: 'POST',
        headers,
        body: payload.body,
      });
    },
  };
}
