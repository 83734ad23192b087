import { createHmac } from 'node:crypto';
import type { SlackTestPayload } from './payload.js';

/** Headers Slack signs a request with. */
export interface SlackSignatureHeaders {
  readonly 'x-slack-request-timestamp': string;
  readonly 'x-slack-signature': string;
}

/** Input of `signSlackRequest`. */
export interface SignSlackRequestInput {
  /** The signing secret to sign with. */
  readonly secret: string;
  /** The exact body that will be sent. */
  readonly body: string;
  /** Epoch seconds. Default: now. */
  readonly timestamp?: number;
  /** Signature version. Default `v0` (the only one Slack defines; others test refusal). */
  readonly version?: string;
}

/**
 * Signs `body` the way Slack does: `x-slack-signature: v0=<hex HMAC-SHA256 of
 * "v0:{timestamp}:{body}">` and `x-slack-request-timestamp: {timestamp}`.
 */
export function signSlackRequest(input: SignSlackRequestInput): SlackSignatureHeaders {
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  const version = input.version ?? 'v0';
  const digest = createHmac('sha256', input.secret)
    .update(`${version}:${timestamp}:${input.body}`, 'utf8')
    .digest('hex');
  return {
    'x-slack-request-timestamp': timestamp,
    'x-slack-signature': `${version}=${digest}`,
  };
}

/** Input of `signedSlackRequest`. */
export interface SignedSlackRequestInput {
  /** The signing secret; `undefined` sends the request unsigned. */
  readonly secret: string | undefined;
  /** A payload from one of the builders. */
  readonly payload: SlackTestPayload;
  /** Default `http://127.0.0.1/slack/events`. */
  readonly url?: string;
  /** Epoch seconds of the signature. Default: now. */
  readonly timestamp?: number;
  /** Extra headers (`x-slack-retry-num`, ...); they override the signature headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A `Request` as Slack would send it: POST, the payload's content type, signed with `secret`. */
export function signedSlackRequest(input: SignedSlackRequestInput): Request {
  const headers: Record<string, string> = { 'content-type': input.payload.contentType };
  if (input.secret !== undefined) {
    Object.assign(
      headers,
      signSlackRequest({
        secret: input.secret,
        body: input.payload.body,
        ...(input.timestamp !== undefined ? { timestamp: input.timestamp } : {}),
      }),
    );
  }
  Object.assign(headers, input.headers);
  return new Request(input.url ?? 'http://127.0.0.1/slack/events', {
    method: 'POST',
    headers,
    body: input.payload.body,
  });
}
