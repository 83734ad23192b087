import {
  type AdmissionRejectedError,
  hasErrorCode,
  type Observation,
  type RtEvent,
  type RuntimeHandle,
  readBodyWithLimit,
} from '@rt/core';
import { normalizeCommand } from '../normalize/normalize-command.js';
import { normalizeEventCallback } from '../normalize/normalize-event-callback.js';
import { normalizeInteractive } from '../normalize/normalize-interactive.js';
import type { NormalizeContext, Normalized } from '../normalize/normalized.js';
import type { ResolvedSlackOptions } from '../options.js';
import { isSslCheck, parseSlackBody, type SlackInbound } from '../parse/parse-body.js';
import { type Answer, emptyAck, jsonResponse, textResponse } from '../respond/answer.js';
import type { FollowUpRunner } from '../respond/follow-up.js';
import { lateRefusalFor } from '../respond/late-refusal.js';
import { refusalFor } from '../respond/refusal.js';
import { answerForResult } from '../respond/result-answer.js';
import { verifySlackSignature } from '../verify/verify-signature.js';
import { retryOf } from './retry-headers.js';

/** What the request handler needs from its adapter. */
export interface RequestHandlerDeps {
  readonly options: ResolvedSlackOptions;
  /** The attached runtime, or `undefined` before `attach`. */
  runtime(): RuntimeHandle | undefined;
  readonly followUps: FollowUpRunner;
}

type NoticeDetail = Readonly<Record<string, unknown>>;

function notice(
  deps: RequestHandlerDeps,
  name: string,
  detail?: NoticeDetail,
  error?: unknown,
): void {
  const runtime = deps.runtime();
  if (runtime === undefined) return;
  const observation: Observation = {
    type: 'adapter_notice',
    at: deps.options.clock(),
    adapter: deps.options.name,
    name,
    ...(detail !== undefined ? { detail } : {}),
    ...(error !== undefined ? { error } : {}),
  };
  try {
    runtime.observe(observation);
  } catch {
    // Observation must never break a request.
  }
}

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

/** The answer to a dispatch that threw: a refusal with busy or unavailable wording. */
function answerForError(deps: RequestHandlerDeps, event: RtEvent, error: unknown): Answer {
  const { busyText, unavailableText } = deps.options;
  if (hasErrorCode(error, 'RT_ADMISSION_REJECTED')) {
    const reason = (error as AdmissionRejectedError).reason;
    return refusalFor(event, reason === 'shutdown' ? unavailableText : busyText);
  }
  if (!hasErrorCode(error, 'RT_PRELUDE')) {
    notice(deps, 'dispatch_error', { shape: event.shape, eventId: event.id }, error);
  }
  return refusalFor(event, unavailableText);
}

async function dispatch(
  deps: RequestHandlerDeps,
  runtime: RuntimeHandle,
  event: RtEvent,
): Promise<Answer> {
  try {
    const sync = runtime.modeFor(event) === 'sync';
    const result = await runtime.dispatch(
      event,
      sync ? { signal: AbortSignal.timeout(deps.options.syncDeadlineMs) } : undefined,
    );
    if (result.status === 'accepted' && event.shape !== 'event_callback') {
      void result.settled.then((finished) => {
        if (finished.outcome === 'dropped') signalUnrun(deps, event);
      });
    }
    return answerForResult(event, result, deps.options);
  } catch (error) {
    return answerForError(deps, event, error);
  }
}

/**
 * A deferred direct invocation was acknowledged, then dropped without running (its scope was
 * busy): tell the user it is busy, after the fact, or make it observable where nothing is visible.
 */
function signalUnrun(deps: RequestHandlerDeps, event: RtEvent): void {
  const followUp = lateRefusalFor(event, deps.options.busyText);
  if (followUp === undefined) {
    notice(deps, 'dropped_without_signal', { shape: event.shape, eventId: event.id });
    return;
  }
  deps.followUps.start(event, followUp);
}

async function readBody(request: Request, limit: number): Promise<string | Response> {
  try {
    return await readBodyWithLimit(request, limit);
  } catch (error) {
    if (hasErrorCode(error, 'RT_PAYLOAD_TOO_LARGE')) return textResponse(413, 'Payload Too Large');
    return textResponse(400, 'Bad Request: unreadable body');
  }
}

/**
 * Builds the adapter's web-standard handler. Order, per request: method check (405), body read
 * with the size limit (413), Slack's unsigned `ssl_check` probe (200, undispatched), signature
 * verification (bare 401), parsing (400), `url_verification` (challenge echoed), before `attach`
 * (503), `app_rate_limited` (200 and an `adapter_notice`), normalisation (ignored events 200),
 * then dispatch and the shape-aware answer. Busy-signal follow-ups start after the answer is
 * built and never delay it. It never rejects: unexpected failures answer like a prelude error.
 */
export function createRequestHandler(
  deps: RequestHandlerDeps,
): (request: Request) => Promise<Response> {
  const { options } = deps;
  return async (request) => {
    if (request.method !== 'POST') {
      return new Response(null, { status: 405, headers: { allow: 'POST' } });
    }
    const body = await readBody(request, options.bodyLimitBytes);
    if (body instanceof Response) return body;
    const contentType = request.headers.get('content-type');
    if (isSslCheck(body, contentType)) return emptyAck();
    const receivedAt = options.clock();
    const check = verifySlackSignature({
      secrets: options.signingSecrets,
      timestamp: request.headers.get('x-slack-request-timestamp'),
      signature: request.headers.get('x-slack-signature'),
      rawBody: body,
      nowMs: receivedAt,
      toleranceMs: options.signatureToleranceMs,
    });
    if (!check.ok) {
      notice(deps, 'signature_rejected', { reason: check.reason });
      return new Response(null, { status: 401 });
    }
    let inbound: SlackInbound;
    try {
      inbound = parseSlackBody(body, contentType);
    } catch (error) {
      return textResponse(400, `Bad Request: ${(error as Error).message}`);
    }
    if (inbound.type === 'url_verification') return jsonResponse({ challenge: inbound.challenge });
    const runtime = deps.runtime();
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
      return jsonResponse({
        response_action: 'errors',
        errors: { [normalized.blockId]: options.busyText },
      });
    }
    const answer = await dispatch(deps, runtime, normalized.event);
    if (answer.followUp !== undefined) deps.followUps.start(normalized.event, answer.followUp);
    return answer.response;
  };
}
