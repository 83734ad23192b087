import type { RtEvent } from '@rt/core';
import type { FollowUp } from './answer.js';
import { refusalFor, responseUrlOf } from './refusal.js';

/**
 * The busy signal for a direct invocation that was acknowledged (deferred) but then ended without
 * its handler running (`dropped` on a lock conflict). The acknowledgement has already gone out,
 * so only a follow-up can reach the user: an ephemeral via `response_url` (slash commands, message
 * actions, block actions on messages) or a busy view via the `trigger_id` (modals, shortcuts; it
 * expires 3 s after the click). `undefined` where nothing visible is possible any more
 * (`view_submission` already closed, `view_closed`, suggestions) or for Events API callbacks,
 * which are not direct invocations.
 */
export function lateRefusalFor(event: RtEvent, text: string): FollowUp | undefined {
  switch (event.shape) {
    case 'slash_command': {
      const url = responseUrlOf(event.payload as Record<string, unknown>);
      return url === undefined
        ? undefined
        : {
            kind: 'response_url',
            url,
            body: { response_type: 'ephemeral', replace_original: false, text },
          };
    }
    case 'block_actions':
    case 'message_action':
    case 'shortcut':
      return refusalFor(event, text).followUp;
    default:
      return undefined;
  }
}
