import { type AckClock, startAckClock } from '@rt/core/adapter';
import { answerSlackPayload } from '../inbound/answer-payload.js';
import type { SlackCoreDeps } from '../inbound/deps.js';
import { classifySlackPayload, type SlackInbound } from '../parse/classify-payload.js';
import { decodeSlackBody } from './decode-body.js';
import { readSignedBody } from './read-signed-body.js';
import { retryOf } from './retry-headers.js';
import { textResponse, toResponse } from './to-response.js';

/**
 * Builds the adapter's web-standard handler: it only converts between HTTP and the
 * transport-neutral core. Order, per request: method check (405); the ack clock starts; signature
 * headers, then the body with its size limit, then the signature itself (`readSignedBody`: 401
 * before 413, Slack's unsigned `ssl_check` probe 200); body decoding and payload classification
 * (400); then `answerSlackPayload` with the receipt time and the `x-slack-retry-*` headers, whose
 * acknowledgement is written by `toResponse`. It never rejects: an unexpected failure is answered
 * 500 (which Slack retries for events) with an `adapter_notice` named `request_failed`.
 */
export function createRequestHandler(deps: SlackCoreDeps): (request: Request) => Promise<Response> {
  const { options } = deps;
  return async (request) => {
    let clock: AckClock | undefined;
    try {
      if (request.method !== 'POST') {
        return new Response(null, { status: 405, headers: { allow: 'POST' } });
      }
      clock = startAckClock({
        ackDeadlineMs: options.ackDeadlineMs,
        syncDeadlineMs: options.syncDeadlineMs,
      });
      const receivedAt = options.clock();
      const body = await readSignedBody(deps, request, receivedAt);
      if (body.type === 'answered') return body.response;
      let inbound: SlackInbound;
      try {
        const decoded = decodeSlackBody(body.text, request.headers.get('content-type'));
        inbound = classifySlackPayload(decoded.source, decoded.payload);
      } catch (error) {
        return textResponse(400, `Bad Request: ${(error as Error).message}`);
      }
      const retry = retryOf(request.headers);
      const ack = await answerSlackPayload(deps, inbound, {
        receivedAt,
        clock,
        ...(retry === undefined ? {} : { retry }),
      });
      return toResponse(ack);
    } catch (error) {
      // A bug, not an input: Slack gets a retry-inducing 500 (events are redelivered), operators
      // an `adapter_notice`. Were the event already accepted, the retry would meet its mark.
      deps.notice('request_failed', undefined, error);
      return textResponse(500, 'Internal Server Error');
    } finally {
      clock?.dispose();
    }
  };
}
