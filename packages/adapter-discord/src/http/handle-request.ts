import type { KeyObject } from 'node:crypto';
import { discardBody, readBodyUpTo } from '@rt/core/adapter';
import { answerInteraction } from '../inbound/answer-interaction.js';
import type { InboundDeps } from '../inbound/inbound-deps.js';
import { type ParsedInteraction, parseInteraction } from '../parse/parse-interaction.js';
import { checkSignatureHeaders, verifyDiscordSignature } from '../verify/verify-signature.js';
import { deliveredJsonResponse, textResponse } from './responses.js';

/**
 * After a 413, at most this many times `bodyLimitBytes` of the rest is read and discarded, so the
 * client can read the answer; past it the stream is cancelled.
 */
const DISCARD_LIMIT_FACTOR = 8;

function unauthorized(deps: InboundDeps, reason: string): Response {
  deps.notice('signature_rejected', { reason });
  return new Response(null, { status: 401 });
}

async function answerRequest(
  deps: InboundDeps,
  key: KeyObject,
  request: Request,
): Promise<Response> {
  const { options } = deps;
  const signature = request.headers.get('x-signature-ed25519');
  const timestamp = request.headers.get('x-signature-timestamp');
  const headers = checkSignatureHeaders(signature, timestamp, {
    nowMs: options.clock(),
    toleranceMs: options.signatureToleranceMs,
  });
  if (!headers.ok) return unauthorized(deps, headers.reason);
  const receivedAt = options.clock();
  const body = await readBodyUpTo(request, options.bodyLimitBytes);
  if (body.type === 'too-large') {
    void discardBody(request, options.bodyLimitBytes * DISCARD_LIMIT_FACTOR);
    return textResponse(413, 'Payload Too Large');
  }
  if (body.type === 'unreadable') return textResponse(400, 'Bad Request: unreadable body');
  const check = verifyDiscordSignature({
    key,
    signature,
    timestamp,
    rawBody: body.text,
  });
  if (!check.ok) return unauthorized(deps, check.reason);
  let parsed: ParsedInteraction;
  try {
    parsed = parseInteraction(body.text);
  } catch (error) {
    return textResponse(400, `Bad Request: ${(error as Error).message}`);
  }
  const answer = await answerInteraction(deps, parsed, receivedAt);
  if (answer.type === 'not_attached') return textResponse(503, 'Service Unavailable: not attached');
  return deliveredJsonResponse(answer.callback, answer.delivered);
}

/**
 * Builds the adapter's web-standard interactions handler. Order, per request: method (405);
 * signature headers, missing, malformed or outside `signatureToleranceMs` of `clock`: 401 before
 * the body is read; the body up to
 * `bodyLimitBytes` (413, the rest discarded up to a cap; a failing stream 400); the Ed25519
 * signature over timestamp + body (401); parsing (400: bad JSON, unknown type, missing `data`);
 * PING (PONG, never gated); before `attach` (503); then the interaction's callback, 200 JSON,
 * ready by `ackDeadlineMs` after receipt. Verification comes first whatever the runtime's state:
 * saturated or shutting down, a bad signature is a 401 and nothing is dispatched. Every 401 emits a
 * `signature_rejected` notice. Never rejects: an unexpected failure is a 500 with a
 * `request_failed` notice. `key` is the application's imported public key.
 */
export function createRequestHandler(
  deps: InboundDeps,
  key: KeyObject,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') {
      return new Response(null, { status: 405, headers: { allow: 'POST' } });
    }
    try {
      return await answerRequest(deps, key, request);
    } catch (error) {
      deps.notice('request_failed', undefined, error);
      return textResponse(500, 'Internal Server Error');
    }
  };
}
