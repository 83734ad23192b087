import {
  badRequestAnswer,
  type HttpReply,
  jsonAnswer,
  OK_ANSWER,
  textAnswer,
} from '@rt/core/adapter';
import type { SlackAck } from '../respond/answer.js';

const SERVICE_UNAVAILABLE = Object.freeze(textAnswer(503, 'Service Unavailable'));

/**
 * A neutral acknowledgement as HTTP: `empty` 200, `json` 200 JSON, `text` its status (default
 * 200), `invalid` 400 `Bad Request: <reason>`, `retry` 503 `Service Unavailable` (never
 * `x-slack-no-retry`, so Slack redelivers), `response` the web `Response` as is.
 */
export function httpAnswerOf(ack: SlackAck): HttpReply {
  switch (ack.kind) {
    case 'empty':
      return OK_ANSWER;
    case 'json':
      return jsonAnswer(ack.body);
    case 'text':
      return textAnswer(ack.status ?? 200, ack.text);
    case 'invalid':
      return badRequestAnswer(ack.reason);
    case 'retry':
      return ack.reason === undefined
        ? SERVICE_UNAVAILABLE
        : textAnswer(503, `Service Unavailable: ${ack.reason}`);
    case 'response':
      return ack.response;
  }
}
