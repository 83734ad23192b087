import { jsonAck, type SlackAck } from './answer.js';
import { busyView } from './busy-surfaces.js';

/**
 * The answer that refuses a `view_submission` with `text` while keeping the user's input (docs/contract.md
 * §9.1): `response_action: errors` on input block `blockId` (Slack only shows errors on input
 * blocks, and rejects the answer when the id names anything else), or, without an input block,
 * `response_action: push` of a small busy view over the modal.
 */
export function viewSubmissionRefusal(blockId: string | undefined, text: string): SlackAck {
  if (blockId !== undefined) {
    return jsonAck({ response_action: 'errors', errors: { [blockId]: text } });
  }
  return jsonAck({ response_action: 'push', view: busyView(text) });
}
