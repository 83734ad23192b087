import { type HttpEndpoint, OK_ANSWER } from '@rt/core/adapter';
import { answerSlackPayload } from '../inbound/answer-payload.js';
import type { SlackCoreDeps } from '../inbound/deps.js';
import { classifySlackPayload, type SlackInbound } from '../parse/classify-payload.js';
import { checkSignatureHeaders, verifySlackDigest } from '../verify/verify-signature.js';
import { decodeSlackBody, isSslCheck } from './decode-body.js';
import { httpAnswerOf } from './http-answer.js';
import { retryOf } from './retry-headers.js';

/**
 * Slack's side of the kit's HTTP flow (`serveHttp`, which both `handler` and `nodeListener` run):
 * - the signature headers: `x-slack-request-timestamp` within `signatureToleranceMs` of the
 *   receipt time, and a `v0=` `x-slack-signature`;
 * - Slack's unsigned `ssl_check=1` probe answered 200 (it dispatches nothing), read at most
 *   `UNSIGNED_PROBE_LIMIT_BYTES` when the headers fail;
 * - the HMAC checked against every signing secret (the headers were checked on arrival);
 * - the body decoded (JSON, form, `payload=`) and classified (a failure is a 400);
 * - `answerSlackPayload` with the receipt time and the `x-slack-retry-*` headers, whose
 *   acknowledgement becomes the answer (`httpAnswerOf`).
 */
export function slackEndpoint(deps: SlackCoreDeps): HttpEndpoint<SlackInbound> {
  const { options } = deps;
  const toleranceMs = options.signatureToleranceMs;
  return {
    bodyLimitBytes: options.bodyLimitBytes,
    clock: options.clock,
    ackDeadlineMs: options.ackDeadlineMs,
    syncDeadlineMs: options.syncDeadlineMs,
    notice: deps.notice,
    checkHeaders: (request, nowMs) =>
      checkSignatureHeaders({
        timestamp: request.header('x-slack-request-timestamp'),
        signature: request.header('x-slack-signature'),
        nowMs,
        toleranceMs,
      }),
    answerUnsigned: (body, request) =>
      isSslCheck(body, request.header('content-type')) ? OK_ANSWER : undefined,
    // `checkHeaders` passed on arrival (the flow's order), so only the digest is left to check.
    verify: (rawBody, request) =>
      verifySlackDigest(
        options.signingSecrets,
        request.header('x-slack-request-timestamp') ?? '',
        request.header('x-slack-signature') ?? '',
        rawBody,
      ),
    parse(body, request) {
      const decoded = decodeSlackBody(body, request.header('content-type'));
      return classifySlackPayload(decoded.source, decoded.payload);
    },
    answer(inbound, { receivedAt, clock, request }) {
      const retry = retryOf(
        request.header('x-slack-retry-num'),
        request.header('x-slack-retry-reason'),
      );
      // Two literals rather than a spread: one object per request.
      const facts = retry === undefined ? { receivedAt, clock } : { receivedAt, clock, retry };
      const ack = answerSlackPayload(deps, inbound, facts);
      // A dispatched event's answer: one reaction, no async frame.
      return ack instanceof Promise ? ack.then(httpAnswerOf) : httpAnswerOf(ack);
    },
  };
}
