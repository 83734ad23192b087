import type { RtEvent } from '@rt/core';

/** The message a gateway event is about: where a reply to it goes. */
export interface MessageTarget {
  /** The channel (a thread is a channel) the message is in. */
  readonly channel: string;
  readonly messageId: string;
}

/**
 * The message behind a gateway event: the message itself for `message_create`, the reacted-to
 * message for reactions; `undefined` for interactions and raw dispatches.
 */
export function messageTargetOf(event: RtEvent): MessageTarget | undefined {
  const payload = event.payload as Record<string, unknown> | undefined;
  if (typeof payload !== 'object' || payload === null) return undefined;
  const channel = payload.channel_id;
  if (typeof channel !== 'string') return undefined;
  const messageId =
    event.shape === 'message_create'
      ? payload.id
      : event.shape === 'message_reaction_add' || event.shape === 'message_reaction_remove'
        ? payload.message_id
        : undefined;
  return typeof messageId === 'string' ? { channel, messageId } : undefined;
}
