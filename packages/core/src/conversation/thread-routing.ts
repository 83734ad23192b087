/**
 * The prelude's conversation step (docs/conversations.md): ending a thread's subscription when the
 * platform says the thread ended, and the subscription check that sends a plain message of a
 * subscribed thread to `onSubscribedMessage`.
 */
import type { RtEvent } from '../event/event.js';
import type { Handler } from '../routing/handler.js';
import type { Router } from '../routing/router.js';
import { hasSubscriptions } from '../state/thread-capabilities.js';
import type { ThreadHost } from './thread-host.js';
import { continuesThread, threadKeyOf } from './thread-key.js';

/**
 * The State work `event` needs before routing, or `undefined` when it needs none (then the
 * prelude stays synchronous up to the mark):
 * - `endsThread`: `unsubscribe(threadKey)` (when the State has `Subscriptions`), then normal
 *   routing;
 * - a plain message in a thread that it does not start (`continuesThread`), while some
 *   `onSubscribedMessage` route matches its adapter: one `touchSubscription(threadKey)`, which
 *   also extends a live subscription by its TTL. Resolves those handlers when the thread is
 *   subscribed, else `undefined`: normal routing.
 * Messages outside threads, mentions and every other kind cost no State call. Rejects with the
 * State's error; the prelude turns it into a prelude error (nothing marked).
 */
export function conversationStep(
  host: ThreadHost,
  router: Router,
  event: RtEvent,
): Promise<readonly Handler[] | undefined> | undefined {
  const ends = event.endsThread === true && hasSubscriptions(host.state);
  const handlers =
    !ends && router.hasSubscribedRoutes && continuesThread(event)
      ? router.matchSubscribed(event)
      : undefined;
  if (!ends && (handlers === undefined || handlers.length === 0)) return undefined;
  return run(host, event, ends ? undefined : handlers);
}

/** `handlers` set: check the subscription; unset: end it. */
async function run(
  host: ThreadHost,
  event: RtEvent,
  handlers: readonly Handler[] | undefined,
): Promise<readonly Handler[] | undefined> {
  const key = threadKeyOf(event) as string; // both paths need `thread`
  const state = host.subscriptions(event);
  if (handlers === undefined) {
    await state.unsubscribe(key);
    return undefined;
  }
  return (await state.touchSubscription(key)) ? handlers : undefined;
}
