import type { RtEvent } from '@rt/core';
import { MessageFlags } from 'discord-api-types/v10';
import { answersByUpdate } from './answer.js';
import { truncate } from './callback.js';

/**
 * A busy signal sent after the acknowledgement: an interaction that was acknowledged (deferred)
 * and then ended without its handler running (`dropped` on a lock conflict).
 */
export interface LateBusySignal {
  readonly event: RtEvent;
  /** `edit_original` replaces the "thinking…" of a type 5; `follow_up` posts an ephemeral message. */
  readonly via: 'edit_original' | 'follow_up';
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * The late busy signal for `event`, acknowledged as accepted (`plainAck`), possibly not yet handed
 * over: after a type 5 the "thinking…" message becomes the busy text (its visibility was fixed by
 * the ack); after a type 6 an ephemeral follow-up carries it. Decided from the shape, not from the
 * delivery state, since the drop may come before the ack is sent (the send waits for it).
 * `undefined` for autocomplete (always sync: never acknowledged unrun).
 */
export function lateBusySignalFor(event: RtEvent, text: string): LateBusySignal | undefined {
  if (event.shape === 'autocomplete') return undefined;
  const content = truncate(text, 2000);
  if (!answersByUpdate(event)) {
    return { event, via: 'edit_original', body: { content, allowed_mentions: { parse: [] } } };
  }
  return {
    event,
    via: 'follow_up',
    body: { content, flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } },
  };
}
