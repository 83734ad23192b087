import type { DispatchResult, RtEvent } from '@rt/core';
import { isFormErrors } from '@rt/core/adapter';
import { slackFormErrors } from '../render/block-kit.js';
import { type Answer, EMPTY_ACK, jsonAck, type SlackAck, textAck } from './answer.js';
import { refusalFor } from './refusal.js';

/** Texts of the visible signals. */
export interface SignalTexts {
  readonly busyText: string;
  readonly unavailableText: string;
}

/** The plain acknowledgement of a shape: empty, except suggestions which must list options. */
export function plainAck(event: RtEvent): SlackAck {
  return event.shape === 'block_suggestion' ? jsonAck({ options: [] }) : EMPTY_ACK;
}

/**
 * Turns a sync handler's return value into the acknowledgement: a `Response` is passed through
 * (sent as is over HTTP);
 * `formErrors(...)` becomes `{ response_action: 'errors', errors }`;
 * a string becomes an ephemeral reply for slash commands (plain text elsewhere); an array answers
 * a `block_suggestion` as its `options`; any other value is sent as JSON (e.g. a view
 * submission's `{ response_action: 'errors', errors }` or a suggestion's `{ option_groups }`).
 */
export function handlerResponse(event: RtEvent, value: unknown): SlackAck {
  if (value instanceof Response) return { kind: 'response', response: value };
  if (typeof value === 'string') {
    return event.shape === 'slash_command'
      ? jsonAck({ response_type: 'ephemeral', text: value })
      : textAck(value);
  }
  if (isFormErrors(value)) return jsonAck(slackFormErrors(value));
  if (Array.isArray(value) && event.shape === 'block_suggestion') {
    return jsonAck({ options: value });
  }
  return jsonAck(value);
}

/**
 * Maps a dispatch result to Slack's answer. Unrouted, duplicate and accepted deliveries get the
 * plain acknowledgement. A sync delivery answers with its handler's value; one that ended without
 * a value and without completing (the lock was busy, the handler threw or ran past its deadline)
 * answers like a refusal: busy wording when it was dropped or superseded, unavailable otherwise,
 * so a user never sees a fake success.
 */
export function answerForResult(
  event: RtEvent,
  result: DispatchResult,
  texts: SignalTexts,
): Answer {
  if (result.status !== 'completed') return { ack: plainAck(event) };
  if (result.response !== undefined) return { ack: handlerResponse(event, result.response) };
  // An accepted event is marked: asking Slack to retry it would only meet the dedupe mark.
  if (result.outcome === 'completed' || event.shape === 'event_callback') {
    return { ack: plainAck(event) };
  }
  const busy = result.outcome === 'dropped' || result.outcome === 'superseded';
  return refusalFor(event, busy ? texts.busyText : texts.unavailableText);
}
