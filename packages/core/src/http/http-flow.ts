import { type AckClock, startAckClock } from '../adapter-kit/ack-clock.js';
import type { NoticeEmitter } from '../adapter-kit/notices.js';
import {
  badRequestAnswer,
  type HttpAnswer,
  type HttpReply,
  INTERNAL_ERROR_ANSWER,
  METHOD_NOT_ALLOWED_ANSWER,
  PAYLOAD_TOO_LARGE_ANSWER,
  UNAUTHORIZED_ANSWER,
} from './http-answer.js';
import type { HttpRequestView } from './request-view.js';

/**
 * After a 413, at most this many times `bodyLimitBytes` of the rest is read and discarded, so the
 * client can read the answer; past it the transport gives up on the body.
 */
export const DISCARD_LIMIT_FACTOR = 8;

/**
 * How much of a body is read when the signature headers already fail and the endpoint has an
 * `answerUnsigned` (a platform probe sent unsigned): enough for a short form post, never more.
 */
export const UNSIGNED_PROBE_LIMIT_BYTES = 4096;

/** A signature (or signature header) check: passed, or refused with a reason for the notice. */
export type RequestCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The notices the HTTP flow emits. */
export type HttpNoticeName = 'signature_rejected' | 'request_failed';

/** What the flow knows about a request when it hands the payload to the endpoint. */
export interface HttpDeliveryFacts {
  /** Receipt time, read from the endpoint's `clock` on arrival (the ack deadline counts from it). */
  readonly receivedAt: number;
  /**
   * The request's deadlines, started on arrival from `receivedAt` on the endpoint's `clock`
   * (`startAckClock`); the flow disposes it once the answer is ready. Hand it to
   * `answerDelivery`, so the time spent reading the body counts against the deadline.
   */
  readonly clock: AckClock;
  readonly request: HttpRequestView;
}

/**
 * One platform's side of the HTTP flow: its verification, parsing and answer. `P` is the parsed
 * payload. Every hook but `answer` is synchronous and cheap; none sees a transport object.
 */
export interface HttpEndpoint<P> {
  /** Largest accepted body; larger ones get 413 undispatched. */
  readonly bodyLimitBytes: number;
  /** The adapter's clock (epoch ms): read once on arrival, as the receipt time. */
  readonly clock: () => number;
  /** How long after arrival the answer must be out (the request's `AckClock`). */
  readonly ackDeadlineMs: number;
  /** How long after arrival sync handlers are aborted. */
  readonly syncDeadlineMs: number;
  /** The adapter's notice emitter (its name union includes `HttpNoticeName`). */
  readonly notice: NoticeEmitter<HttpNoticeName>;
  /** The signature headers alone (present, well-formed, fresh), before the body is read. */
  checkHeaders(request: HttpRequestView, receivedAt: number): RequestCheck;
  /**
   * A request the platform sends unsigned on purpose (Slack's `ssl_check`): its answer, or
   * `undefined` for every other body. Asked with at most `UNSIGNED_PROBE_LIMIT_BYTES` of the body
   * when the headers fail, and with the whole body before the signature is checked. Absent: a
   * request failing its headers is refused without reading its body.
   */
  answerUnsigned?(body: string, request: HttpRequestView): HttpAnswer | undefined;
  /** The signature over the raw body. */
  verify(body: string, request: HttpRequestView, receivedAt: number): RequestCheck;
  /** Decodes a verified body; throws (its message becomes `400 Bad Request: <message>`). */
  parse(body: string, request: HttpRequestView): P;
  /** Answers a verified, parsed payload (dispatch and the shape-aware answer). */
  answer(payload: P, facts: HttpDeliveryFacts): Promise<HttpReply> | HttpReply;
}

function refuse(endpoint: HttpEndpoint<unknown>, reason: string): HttpAnswer {
  endpoint.notice('signature_rejected', { reason });
  return UNAUTHORIZED_ANSWER;
}

/**
 * Answers one HTTP request, whatever shell carried it (the native listener and the web handler
 * only convert). The one place that decides, in this order:
 * 1. anything but POST: 405 with `allow: POST`, nothing read;
 * 2. the receipt time is read from `endpoint.clock`, and the request's deadlines start from it
 *    (on that same clock: a skewed clock moves no deadline);
 * 3. the signature headers (`checkHeaders`), before the body: failing, a bare 401 (a platform's
 *    unsigned probe excepted, see `answerUnsigned`), whatever the body's size;
 * 4. the body up to `bodyLimitBytes`: larger gets 413 (the rest discarded in the background up to
 *    `DISCARD_LIMIT_FACTOR` times the limit), a failing stream 400;
 * 5. a platform's unsigned probe (`answerUnsigned`): its answer;
 * 6. the signature over the body (`verify`): a bare 401;
 * 7. parsing (`parse`): 400 `Bad Request: <reason>`;
 * 8. the endpoint's answer (`answer`, with the receipt time and the running deadlines).
 * Verification comes first whatever the runtime's state (saturated, shutting down, not attached).
 * Every 401 emits a `signature_rejected` notice with the reason. Never rejects: an unexpected
 * failure is answered 500 with a `request_failed` notice.
 */
export async function serveHttp<P>(
  endpoint: HttpEndpoint<P>,
  request: HttpRequestView,
): Promise<HttpReply> {
  if (request.method !== 'POST') return METHOD_NOT_ALLOWED_ANSWER;
  let clock: AckClock | undefined;
  // One async function from arrival to answer: every step but the body read and the endpoint's
  // answer is synchronous, so a request costs those two awaits and no more.
  try {
    const receivedAt = endpoint.clock();
    clock = startAckClock({
      ackDeadlineMs: endpoint.ackDeadlineMs,
      syncDeadlineMs: endpoint.syncDeadlineMs,
      receivedAt,
      now: endpoint.clock,
    });
    const headers = endpoint.checkHeaders(request, receivedAt);
    if (!headers.ok) {
      if (endpoint.answerUnsigned !== undefined) {
        const probe = await request.readBody(UNSIGNED_PROBE_LIMIT_BYTES);
        const answer =
          probe.type === 'body' ? endpoint.answerUnsigned(probe.text, request) : undefined;
        if (answer !== undefined) return answer;
      }
      return refuse(endpoint, headers.reason);
    }
    const body = await request.readBody(endpoint.bodyLimitBytes);
    if (body.type === 'too-large') {
      request.discardBody(endpoint.bodyLimitBytes * DISCARD_LIMIT_FACTOR);
      return PAYLOAD_TOO_LARGE_ANSWER;
    }
    if (body.type === 'unreadable') return badRequestAnswer('unreadable body');
    const unsigned = endpoint.answerUnsigned?.(body.text, request);
    if (unsigned !== undefined) return unsigned;
    const check = endpoint.verify(body.text, request, receivedAt);
    if (!check.ok) return refuse(endpoint, check.reason);
    let payload: P;
    try {
      payload = endpoint.parse(body.text, request);
    } catch (error) {
      return badRequestAnswer((error as Error)?.message ?? String(error));
    }
    return await endpoint.answer(payload, { receivedAt, clock, request });
  } catch (error) {
    endpoint.notice('request_failed', undefined, error);
    return INTERNAL_ERROR_ANSWER;
  } finally {
    clock?.dispose();
  }
}
