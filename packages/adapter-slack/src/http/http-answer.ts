import type { SlackAck } from '../respond/answer.js';

/**
 * An HTTP answer before any transport writes it: a status, an optional body with its content
 * type, and extra headers. The web handler turns it into a `Response`, the native listener writes
 * it straight to the `ServerResponse`. A sync handler's own web `Response` passes through as is.
 */
export interface HttpAnswer {
  readonly status: number;
  readonly body?: string;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** 200 with an empty body: Slack's plain acknowledgement. */
export const OK_ANSWER: HttpAnswer = Object.freeze({ status: 200 });

/** A bare 401: a signature refused (the reason goes to a notice, never to the client). */
export const UNAUTHORIZED_ANSWER: HttpAnswer = Object.freeze({ status: 401 });

/** 405 for anything but POST. */
export const METHOD_NOT_ALLOWED_ANSWER: HttpAnswer = Object.freeze({
  status: 405,
  headers: Object.freeze({ allow: 'POST' }),
});

const SERVICE_UNAVAILABLE: HttpAnswer = Object.freeze(textAnswer(503, 'Service Unavailable'));

/** A short plain-text answer (errors, refusals). */
export function textAnswer(status: number, text: string): HttpAnswer {
  return { status, body: text, contentType: TEXT };
}

/**
 * A neutral acknowledgement as HTTP: `empty` 200, `json` 200 JSON, `text` its status (default
 * 200), `invalid` 400 `Bad Request: <reason>`, `retry` 503 `Service Unavailable` (never
 * `x-slack-no-retry`, so Slack redelivers), `response` the web `Response` as is.
 */
export function httpAnswerOf(ack: SlackAck): HttpAnswer | Response {
  switch (ack.kind) {
    case 'empty':
      return OK_ANSWER;
    case 'json':
      return { status: 200, body: JSON.stringify(ack.body), contentType: JSON_TYPE };
    case 'text':
      return textAnswer(ack.status ?? 200, ack.text);
    case 'invalid':
      return textAnswer(400, `Bad Request: ${ack.reason}`);
    case 'retry':
      return ack.reason === undefined
        ? SERVICE_UNAVAILABLE
        : textAnswer(503, `Service Unavailable: ${ack.reason}`);
    case 'response':
      return ack.response;
  }
}
