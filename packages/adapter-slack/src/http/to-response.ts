import type { SlackAck } from '../respond/answer.js';

/** 200 with an empty body: Slack's plain acknowledgement. */
export function emptyResponse(): Response {
  return new Response(null, { status: 200 });
}

/** 200 (or `status`) with a JSON body. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/** A short plain-text response (errors, refusals). */
export function textResponse(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/**
 * Writes a neutral acknowledgement as HTTP: `empty` 200, `json` 200 JSON, `text` its status
 * (default 200), `invalid` 400 `Bad Request: <reason>`, `retry` 503 `Service Unavailable` (never
 * `x-slack-no-retry`, so Slack redelivers), `response` as is.
 */
export function toResponse(ack: SlackAck): Response {
  switch (ack.kind) {
    case 'empty':
      return emptyResponse();
    case 'json':
      return jsonResponse(ack.body);
    case 'text':
      return textResponse(ack.status ?? 200, ack.text);
    case 'invalid':
      return textResponse(400, `Bad Request: ${ack.reason}`);
    case 'retry':
      return textResponse(
        503,
        ack.reason === undefined ? 'Service Unavailable' : `Service Unavailable: ${ack.reason}`,
      );
    case 'response':
      return ack.response;
  }
}
