import type { RuntimeHandle } from '@rt/core';
import { normalizeCommand } from '../normalize/normalize-command.js';
import { normalizeEventCallback } from '../normalize/normalize-event-callback.js';
import { normalizeInteractive } from '../normalize/normalize-interactive.js';
import type { NormalizeContext, Normalized } from '../normalize/normalized.js';
import { parseSlackBody, type SlackInbound } from '../parse/parse-body.js';
import { emptyAck, jsonResponse, textResponse } from '../respond/answer.js';
import { viewSubmissionRefusal } from '../respond/view-submission-refusal.js';
import { type AckClock, startAckClock } from './ack-clock.js';
import { dispatchAndAnswer } from './dispatch-answer.js';
import { readSignedBody } from './read-signed-body.js';
import { notice, type RequestHandlerDeps } from './request-deps.js';
import { retryOf } from './retry-headers.js';

export type { RequestHandlerDeps } from './request-deps.js';

function normalize(inbound: SlackInbound, ctx: NormalizeContext): Normalized {
  switch (inbound.type) {
    case 'event_callback':
      return normalizeEventCallback(inbound.body, ctx);
    case 'slash_command':
      return normalizeCommand(inbound.body, ctx);
    case 'interactive':
      return normalizeInteractive(inbound.payload, ctx);
    default:
      throw new Error(`not a dispatchable payload: ${inbound.type}`);
  }
}

/** Everything after verification: parsing, handshakes, normalisation, dispatch. */
async function answerVerified(
  deps: RequestHandlerDeps,
  request: Request,
  body: string,
  receivedAt: number,
  clock: AckClock,
): Promise<Response> {
  const { options } = deps;
  let inbound: SlackInbound;
  try {
    inbound = parseSlackBody(body, request.headers.get('content-type'));
  } catch (error) {
    return textResponse(400, `Bad Request: ${(error as Error).message}`);
  }
  if (inbound.type === 'url_verification') return jsonResponse({ challenge: inbound.challenge });
  const runtime: RuntimeHandle | undefined = deps.runtime();
  if (runtime === undefined) return textResponse(503, 'Service Unavailable: not attached');
  if (inbound.type === 'app_rate_limited') {
    notice(deps, 'app_rate_limited', {
      teamId: inbound.body.team_id,
      apiAppId: inbound.body.api_app_id,
      minuteRateLimited: inbound.body.minute_rate_limited,
    });
    return emptyAck();
  }
  let normalized: Normalized;
  try {
    normalized = normalize(inbound, {
      adapter: options.name,
      receivedAt,
      retry: retryOf(request.headers),
      botUserId: options.botUserId,
      botId: options.botId,
      ignoredMessageSubtypes: options.ignoredMessageSubtypes,
    });
  } catch (error) {
    return textResponse(400, `Bad Request: ${(error as Error).message}`);
  }
  if (normalized.type === 'ignore') return emptyAck();
  if (normalized.type === 'busy-option') {
    return viewSubmissionRefusal(normalized.blockId, options.busyText);
  }
  const { event } = normalized;
  const answering = dispatchAndAnswer(deps, runtime, event, clock).then((answer) => {
    if (answer.followUp !== undefined) deps.followUps.start(event, answer.followUp);
    return answer.response;
  });
  return deps.answering.track(answering);
}

/**
 * Builds the adapter's web-standard handler. Order, per request: method check (405); signature
 * headers, then the body with its size limit, then the signature itself (`readSignedBody`: 401
 * before 413, Slack's unsigned `ssl_check` probe 200); parsing (400); `url_verification`
 * (challenge echoed); before `attach` (503); `app_rate_limited` (200 and an `adapter_notice`);
 * normalisation (ignored events 200); then dispatch and the shape-aware answer, which goes out
 * by `ackDeadlineMs` after receipt at the latest (`dispatchAndAnswer`). Busy-signal follow-ups
 * are handed to the runner after the answer is built and start on a later tick, so they never
 * delay it. It never rejects: an unexpected failure is answered 500 (which Slack retries for
 * events) with an `adapter_notice` named `request_failed`.
 */
export function createRequestHandler(
  deps: RequestHandlerDeps,
): (request: Request) => Promise<Response> {
  const { options } = deps;
  return async (request) => {
    if (request.method !== 'POST') {
      return new Response(null, { status: 405, headers: { allow: 'POST' } });
    }
    const clock = startAckClock(options.ackDeadlineMs, options.syncDeadlineMs);
    try {
      const receivedAt = options.clock();
      const body = await readSignedBody(deps, request, receivedAt);
      if (body.type === 'answered') return body.response;
      return await answerVerified(deps, request, body.text, receivedAt, clock);
    } catch (error) {
      // A bug, not an input: Slack gets a retry-inducing 500 (events are redelivered), operators
      // an `adapter_notice`. Were the event already accepted, the retry would meet its mark.
      notice(deps, 'request_failed', undefined, error);
      return textResponse(500, 'Internal Server Error');
    } finally {
      clock.dispose();
    }
  };
}
