import type { RtEvent } from '../event/event.js';

/**
 * Which key a locking strategy serialises on: the event's thread, its channel, or any function of
 * the event (which must return a non-empty string).
 */
export type LockScope = 'thread' | 'channel' | ((event: RtEvent) => string);

/**
 * The scope key of `event` under `scope`, namespaced by adapter and tenant so installations never
 * share a lock. Thread scope uses the event's thread, and an event without one (a slash command, a
 * global shortcut) is its own conversation: it never serialises behind unrelated traffic in its
 * channel. Channel scope falls back to the thread, then to the event id. Adapter and tenant are
 * URI-encoded so no two installations' keys can collide.
 */
export function scopeKeyOf(event: RtEvent, scope: LockScope): string {
  let local: string;
  if (scope === 'thread') local = event.thread ?? `event:${event.id}`;
  else if (scope === 'channel') local = event.channel ?? event.thread ?? `event:${event.id}`;
  else {
    local = scope(event);
    if (typeof local !== 'string' || local.length === 0) {
      throw new TypeError('lockScope function must return a non-empty string');
    }
  }
  return `${encodeURIComponent(event.adapter)}:${encodeURIComponent(event.tenant)}:${local}`;
}
