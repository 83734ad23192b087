import type { RtEvent } from '../event/event.js';
import { scopeKeyOf } from '../locks/lock-scope.js';

/**
 * The thread key of `event`: `adapter:tenant:channel:thread`, every part URI-encoded (the channel
 * part omitted only when the event has none), the key of its subscription and its thread state.
 * It equals the event's Lock Scope key under `'thread'` scope. `undefined` when the event belongs
 * to no thread (a slash command, a Discord message outside a thread channel).
 */
export function threadKeyOf(event: RtEvent): string | undefined {
  return event.thread === undefined ? undefined : scopeKeyOf(event, 'thread');
}

/**
 * True when `event` could continue a subscribed thread: a plain message (`kind` `message`) in a
 * thread that it does not itself start (`threadRoot` unset: a Slack top-level message is the root
 * of its own thread and cannot be a reply in a subscribed one).
 */
export function continuesThread(event: RtEvent): boolean {
  return event.kind === 'message' && event.thread !== undefined && event.threadRoot !== true;
}
