import type { RtEvent } from '@rt/core';
import type { SlackEventCallback, SlackInteractive } from '../parse/payload-types.js';

/** A message in a channel, by its timestamp. */
export interface SlackMessageRef {
  readonly channel: string;
  readonly ts: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The message an event is about: the message itself for message events, the reacted-to item for
 * reactions, the originating message for interactions. `undefined` when there is none.
 */
export function messageRefOf(event: RtEvent): SlackMessageRef | undefined {
  if (event.shape === 'event_callback') {
    const inner = (event.payload as SlackEventCallback).event;
    const channel = text(inner.item?.channel) ?? text(inner.channel);
    const ts = text(inner.item?.ts) ?? text(inner.ts);
    return channel !== undefined && ts !== undefined ? { channel, ts } : undefined;
  }
  const payload = event.payload as SlackInteractive;
  const channel = text(payload.channel?.id) ?? text(payload.container?.channel_id);
  const ts = text(payload.message?.ts) ?? text(payload.container?.message_ts);
  return channel !== undefined && ts !== undefined ? { channel, ts } : undefined;
}

/** The interaction's `trigger_id`, if it has one (valid for 3 s, single use). */
export function triggerIdOf(event: RtEvent): string | undefined {
  return text((event.payload as { trigger_id?: unknown }).trigger_id);
}
