import { type AckClock, startAckClock } from '@rt/core/adapter';
import { answerSlackPayload } from '../inbound/answer-payload.js';
import type { SlackCoreDeps } from '../inbound/deps.js';
import { classifySlackPayload, type SlackInbound } from '../parse/classify-payload.js';
import { decodeSlackBody } from './decode-body.js';
import {
  type HttpAnswer,
  httpAnswerOf,
  METHOD_NOT_ALLOWED_ANSWER,
  textAnswer,
} from './http-answer.js';
import { type HttpRequestView, readSignedBody } from './read-signed-body.js';
import { retryOf } from './retry-headers.js';

/**
 * Answers one HTTP request, whatever transport carried it (the web handler and the native
 * listener only convert). Order: method check (405); the ack clock starts; signature headers,
 * then the body with its size limit, then the signature itself (`readSignedBody`: 401 before 413,
 * Slack's unsigned `ssl_check` probe 200); body decoding and payload classification (400); then
 * `answerSlackPayload` with the receipt time and the `x-slack-retry-*` headers, whose
 * acknowledgement becomes the answer (`httpAnswerOf`). Never rejects: an unexpected failure is
 * answered 500 (which Slack retries for events) with an `adapter_notice` named `request_failed`.
 */
export async function serveSlackHttp(
  deps: SlackCoreDeps,
  request: HttpRequestView,
): Promise<HttpAnswer | Response> {
  const { options } = deps;
  let clock: AckClock | undefined;
  try {
    if (request.method !== 'POST') return METHOD_NOT_ALLOWED_ANSWER;
    clock = startAckClock({
      ackDeadlineMs: options.ackDeadlineMs,
      syncDeadlineMs: options.syncDeadlineMs,
    });
    const receivedAt = options.clock();
    const body = await readSignedBody(deps, request, receivedAt);
    if (body.type === 'answered') return body.answer;
    let inbound: SlackInbound;
    try {
      const decoded = decodeSlackBody(body.text, request.header('content-type'));
      inbound = classifySlackPayload(decoded.source, decoded.payload);
    } catch (error) {
      return textAnswer(400, `Bad Request: ${(error as Error).message}`);
    }
    const retry = retryOf(
      request.header('x-slack-retry-num'),
      request.header('x-slack-retry-reason'),
    );
    const ack = await answerSlackPayload(deps, inbound, {
      receivedAt,
      clock,
      ...(retry === undefined ? {} : { retry }),
    });
    return httpAnswerOf(ack);
  } catch (error) {
    // A bug, not an input: Slack gets a retry-inducing 500 (events are redelivered), operators
    // an `adapter_notice`. Were the event already accepted, the retry would meet its mark.
    deps.notice('request_failed', undefined, error);
    return textAnswer(500, 'Internal Server Error');
  } finally {
    clock?.dispose();
  }
}
