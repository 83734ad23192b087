import type { KeyObject } from 'node:crypto';
import { type HttpAnswer, type HttpEndpoint, jsonAnswer, textAnswer } from '@rt/core/adapter';
import { answerInteraction, type InboundAnswer } from '../inbound/answer-interaction.js';
import type { InboundDeps } from '../inbound/inbound-deps.js';
import { type ParsedInteraction, parseInteraction } from '../parse/parse-interaction.js';
import { checkSignatureHeaders, verifyDiscordSignature } from '../verify/verify-signature.js';

const NOT_ATTACHED = Object.freeze(textAnswer(503, 'Service Unavailable: not attached'));

/** The inbound core's answer as HTTP: the callback as 200 JSON, `not_attached` 503. */
function httpAnswerOf(answer: InboundAnswer): HttpAnswer {
  if (answer.type === 'not_attached') return NOT_ATTACHED;
  return jsonAnswer(answer.callback, { onDelivered: answer.delivered });
}

/**
 * Discord's side of the kit's HTTP flow (`serveHttp`, which both `handler` and `nodeListener`
 * run): the `X-Signature-Ed25519` and `X-Signature-Timestamp` headers checked before the body is
 * read (a request failing them gets 401 whatever its size); the Ed25519 signature by `key` over
 * timestamp + body; parsing (bad JSON, unknown type, missing `data`: 400); then the interaction's
 * callback, 200 JSON, ready by `ackDeadlineMs` after arrival (PING answered PONG, never gated;
 * before `attach` 503). The reply state learns the callback was handed over when the shell
 * delivers it.
 */
export function discordEndpoint(
  deps: InboundDeps,
  key: KeyObject,
): HttpEndpoint<ParsedInteraction> {
  const { options } = deps;
  return {
    bodyLimitBytes: options.bodyLimitBytes,
    clock: options.clock,
    ackDeadlineMs: options.ackDeadlineMs,
    syncDeadlineMs: options.syncDeadlineMs,
    notice: deps.notice,
    checkHeaders: (request, receivedAt) =>
      checkSignatureHeaders(
        request.header('x-signature-ed25519'),
        request.header('x-signature-timestamp'),
        { nowMs: receivedAt, toleranceMs: options.signatureToleranceMs },
      ),
    verify: (rawBody, request) =>
      verifyDiscordSignature({
        key,
        signature: request.header('x-signature-ed25519'),
        timestamp: request.header('x-signature-timestamp'),
        rawBody,
      }),
    parse: (body) => parseInteraction(body),
    answer(parsed, { receivedAt, clock }) {
      const answer = answerInteraction(deps, parsed, receivedAt, clock);
      // A dispatched interaction's answer: one reaction, no async frame.
      return answer instanceof Promise ? answer.then(httpAnswerOf) : httpAnswerOf(answer);
    },
  };
}
