import type { BodyRead } from '@rt/core/adapter';
import type { SlackCoreDeps } from '../inbound/deps.js';
import { checkSignatureHeaders, verifySlackSignature } from '../verify/verify-signature.js';
import { isSslCheck } from './decode-body.js';
import { type HttpAnswer, OK_ANSWER, textAnswer, UNAUTHORIZED_ANSWER } from './http-answer.js';

/**
 * How much of a body is read when the signature headers already fail: enough to recognise Slack's
 * unsigned `ssl_check=1` probe (a short form post), never more.
 */
export const UNSIGNED_PROBE_LIMIT_BYTES = 4096;

/**
 * After a 413, at most this many times `bodyLimitBytes` of the rest is read and discarded, so the
 * client can read the answer; past it the transport gives up on the body.
 */
export const DISCARD_LIMIT_FACTOR = 8;

/**
 * One HTTP request as the transport-neutral HTTP flow sees it; each transport (web `Request`,
 * native `IncomingMessage`) provides one.
 */
export interface HttpRequestView {
  readonly method: string;
  /** A header's value (lower-case name), `null` when absent. */
  header(name: string): string | null;
  /** Reads the body as text, at most `limitBytes` (`readBodyUpTo` / `readNodeBody`). */
  readBody(limitBytes: number): Promise<BodyRead>;
  /** Discards the rest of a body refused as too large, at most `maxBytes`, in the background. */
  discardBody(maxBytes: number): void;
}

/** A verified body, or the answer that ends the request before parsing. */
export type SignedBody =
  | { readonly type: 'verified'; readonly text: string }
  | { readonly type: 'answered'; readonly answer: HttpAnswer };

function refuse(deps: SlackCoreDeps, reason: string): SignedBody {
  deps.notice('signature_rejected', { reason });
  return { type: 'answered', answer: UNAUTHORIZED_ANSWER };
}

/**
 * Reads and verifies a request's body, verification first (SPEC 9):
 * 1. signature headers missing, malformed or outside the timestamp window: at most
 *    `UNSIGNED_PROBE_LIMIT_BYTES` are read; Slack's unsigned `ssl_check` probe gets 200, anything
 *    else a bare 401 (whatever its size);
 * 2. the body is read up to `bodyLimitBytes`: larger gets 413 (the rest is discarded in the
 *    background, up to a cap, so the client sees the answer), a failing stream 400;
 * 3. an `ssl_check` probe gets 200 (it dispatches nothing);
 * 4. the HMAC is checked against every signing secret: a mismatch gets a bare 401.
 * Every 401 emits an `adapter_notice` named `signature_rejected` with the reason.
 */
export async function readSignedBody(
  deps: SlackCoreDeps,
  request: HttpRequestView,
  nowMs: number,
): Promise<SignedBody> {
  const { options } = deps;
  const contentType = request.header('content-type');
  const timestamp = request.header('x-slack-request-timestamp');
  const signature = request.header('x-slack-signature');
  const toleranceMs = options.signatureToleranceMs;
  const headers = checkSignatureHeaders({ timestamp, signature, nowMs, toleranceMs });
  if (!headers.ok) {
    const probe = await request.readBody(UNSIGNED_PROBE_LIMIT_BYTES);
    if (probe.type === 'body' && isSslCheck(probe.text, contentType)) {
      return { type: 'answered', answer: OK_ANSWER };
    }
    return refuse(deps, headers.reason);
  }
  const body = await request.readBody(options.bodyLimitBytes);
  if (body.type === 'too-large') {
    request.discardBody(options.bodyLimitBytes * DISCARD_LIMIT_FACTOR);
    return { type: 'answered', answer: textAnswer(413, 'Payload Too Large') };
  }
  if (body.type === 'unreadable') {
    return { type: 'answered', answer: textAnswer(400, 'Bad Request: unreadable body') };
  }
  if (isSslCheck(body.text, contentType)) return { type: 'answered', answer: OK_ANSWER };
  const check = verifySlackSignature({
    secrets: options.signingSecrets,
    timestamp,
    signature,
    rawBody: body.text,
    nowMs,
    toleranceMs,
  });
  if (!check.ok) return refuse(deps, check.reason);
  return { type: 'verified', text: body.text };
}
