import type { DispatchResult, RtEvent } from '@rt/core';
import { type Answer, emptyAck, jsonResponse, textResponse } from './answer.js';
import { refusalFor } from './refusal.js';

/** Texts of the visible signals. */
export interface SignalTexts {
  readonly busyText: string;
  readonly unavailableText: string;
}

/** The plain acknowledgement of a shape: empty, except suggestions which must list options. */
export function plainAck(event: RtEvent): Response {
  return event.shape === 'block_suggestion' ? jsonResponse({ options: [] }) : emptyAck();
}

/**
 * Turns a sync handler's return value into the acknowledgement body: a `Response` is sent as is;
 * a string becomes an ephemeral reply for slash commands (plain text elsewhere); an array answers
 * a `block_suggestion` as its `options`; any other value is sent as JSON (e.g. a view
 * submission's `{ response_action: 'errors', errors }` or a suggestion's `{ option_groups }`).
 */
export function handlerResponse(event: RtEvent, value: unknown): Response {
  if (value instanceof Response) return value;
  if (typeof value === 'string') {
    return event.shape === 'slash_command'
      ? jsonResponse({ response_type: 'ephemeral', text: value })
      : textResponse(200, value);
  }
  if (Array.isArray(value) && event.shape === 'block_suggestion') {
    return jsonResponse({ options: value });
  }
  return jsonResponse(value);
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
  if (result.status !== 'completed') return { response: plainAck(event) };
  if (result.response !== undefined) return { response: handlerResponse(event, result.response) };
  // An accepted event is marked: asking Slack to retry it would only meet the dedupe mark.
  if (result.outcome === 'completed' || event.shape === 'event_callback') {
    return { response: plainAck(event) };
  }
  const busy = result.outcome === 'dropped' || result.outcome === 'superseded';
  return refusalFor(event, busy ? texts.busyText : texts.unavailableText);
}
