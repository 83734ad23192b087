import type { RtEvent } from '../event/event.js';
import { installationPart, keyPart } from '../util/key-part.js';

/**
 * Which key a locking strategy serialises on: the event's thread, its channel, or any function of
 * the event (which must return a non-empty string).
 */
export type LockScope = 'thread' | 'channel' | ((event: RtEvent) => string);

const part = keyPart;

/**
 * The scope key of `event` under `scope` (docs/contract.md §2, "Lock Scope"; docs/events.md), namespaced
 * by adapter and tenant so installations never share a lock:
 * - thread: `adapter:tenant:channel:thread`. A thread id (a Slack `ts`) is unique only within its
 *   channel, so the channel is part of the key; it is omitted only when the event has none. An
 *   event without a thread (a slash command, a global shortcut) is its own conversation,
 *   `adapter:tenant:event:<id>`: it never serialises behind unrelated traffic in its channel.
 * - channel: `adapter:tenant:channel`, falling back to the thread, then to `event:<id>`.
 * - a function: `adapter:tenant:<what it returned>` (taken as is).
 * Every part the runtime builds is URI-encoded, so a `:` inside an id cannot make two
 * conversations share a key. Throws `TypeError` when a scope function returns no non-empty string.
 */
export function scopeKeyOf(event: RtEvent, scope: LockScope): string {
  const prefix = installationPart(event.adapter, event.tenant);
  if (scope === 'thread') {
    if (event.thread === undefined) return `${prefix}:event:${part(event.id)}`;
    const channel = event.channel === undefined ? '' : `${part(event.channel)}:`;
    return `${prefix}:${channel}${part(event.thread)}`;
  }
  if (scope === 'channel') {
    const local = event.channel ?? event.thread;
    return `${prefix}:${local === undefined ? `event:${part(event.id)}` : part(local)}`;
  }
  const local = scope(event);
  if (typeof local !== 'string' || local.length === 0) {
    throw new TypeError('lockScope function must return a non-empty string');
  }
  return `${prefix}:${local}`;
}
