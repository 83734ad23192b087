import type { RtEvent } from '@rt/core';
import type { SlackInteractive } from '../parse/payload-types.js';
import { type Answer, EMPTY_ACK, jsonAck, RETRY_ACK } from './answer.js';
import { busyOption, busyView, firstInputBlockId } from './busy-surfaces.js';
import { viewSubmissionRefusal } from './view-submission-refusal.js';

function responseUrlOf(payload: SlackInteractive | Record<string, unknown>): string | undefined {
  const direct = (payload as { response_url?: unknown }).response_url;
  if (typeof direct === 'string' && direct.length > 0) return direct;
  const list = (payload as { response_urls?: readonly { response_url?: unknown }[] }).response_urls;
  const first = Array.isArray(list) ? list[0]?.response_url : undefined;
  return typeof first === 'string' && first.length > 0 ? first : undefined;
}

function ephemeralVia(url: string | undefined, text: string): Answer {
  if (url === undefined) return { ack: EMPTY_ACK };
  return {
    ack: EMPTY_ACK,
    followUp: {
      kind: 'response_url',
      url,
      body: { response_type: 'ephemeral', replace_original: false, text },
    },
  };
}

function viewVia(
  kind: 'views.open' | 'views.push',
  triggerId: string | undefined,
  text: string,
): Answer {
  if (triggerId === undefined) return { ack: EMPTY_ACK };
  return { ack: EMPTY_ACK, followUp: { kind, triggerId, view: busyView(text) } };
}

/** Where a `block_actions` came from: a message, a modal, or an App Home tab. */
export function actionSurfaceOf(payload: SlackInteractive): 'message' | 'modal' | 'home' {
  if (payload.container?.type === 'view' || (payload.view && !payload.message)) {
    return payload.view?.type === 'home' ? 'home' : 'modal';
  }
  return 'message';
}

/**
 * The shape-aware answer to a delivery the runtime refused (admission rejected, prelude error,
 * shutdown), carrying `text` (docs/contract.md §9.1):
 * - `event_callback`: `retry` (HTTP 503, never `x-slack-no-retry`), so Slack's own retry carries
 *   the event;
 * - slash command: 200 with an ephemeral `text`;
 * - `block_actions`: 200, then an ephemeral via `response_url` (from a message), `views.push` of a
 *   busy view (in a modal, keeping the user's input) or `views.open` (App Home);
 * - `message_action`: 200, then an ephemeral via `response_url`;
 * - `shortcut`: 200, then `views.open` of a busy view;
 * - `view_submission`: 200 `response_action: errors` on the first input block, or `push` of a
 *   busy view when the modal has no input block;
 * - `view_closed`: 200, nothing visible is possible (the refusal is observable only);
 * - `block_suggestion`: 200 with one placeholder option labelled `text`.
 */
export function refusalFor(event: RtEvent, text: string): Answer {
  const payload = event.payload as SlackInteractive;
  switch (event.shape) {
    case 'event_callback':
      return { ack: RETRY_ACK };
    case 'slash_command':
      return { ack: jsonAck({ response_type: 'ephemeral', text }) };
    case 'block_actions': {
      const surface = actionSurfaceOf(payload);
      if (surface === 'modal') return viewVia('views.push', payload.trigger_id, text);
      if (surface === 'home') return viewVia('views.open', payload.trigger_id, text);
      return ephemeralVia(responseUrlOf(payload), text);
    }
    case 'message_action':
      return ephemeralVia(responseUrlOf(payload), text);
    case 'shortcut':
      return viewVia('views.open', payload.trigger_id, text);
    case 'view_submission':
      return { ack: viewSubmissionRefusal(firstInputBlockId(payload.view), text) };
    case 'block_suggestion':
      return { ack: jsonAck({ options: [busyOption(text)] }) };
    default:
      return { ack: EMPTY_ACK };
  }
}

/** The `response_url` of an interactive payload or slash command, if it has one. */
export { responseUrlOf };
