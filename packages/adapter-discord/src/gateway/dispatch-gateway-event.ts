import type { RtEvent } from '@rt/core';
import type { RuntimeHandle } from '@rt/core/adapter';
import { classifyRefusal } from '@rt/core/adapter';
import { type MessageTarget, messageTargetOf } from '../normalize/message-target.js';
import type { DiscordNoticeName } from '../notices.js';
import type { MessageRefusals } from './message-refusal.js';

/** What dispatching a gateway event needs. */
export interface GatewayDispatchDeps {
  readonly busyText: string;
  readonly unavailableText: string;
  readonly refusals: MessageRefusals;
  notice(
    name: DiscordNoticeName,
    detail?: Readonly<Record<string, unknown>>,
    error?: unknown,
  ): void;
}

/** Only messages get a visible signal: a reaction or raw dispatch has nobody to tell. */
function visibleTarget(event: RtEvent): MessageTarget | undefined {
  return event.shape === 'message_create' ? messageTargetOf(event) : undefined;
}

/**
 * Dispatches a normalised gateway event (a message, a reaction, a raw dispatch) and answers its
 * refusal the docs/contract.md §9.2 way: the gateway delivers at most once and has nothing to acknowledge, so a
 * message refused for capacity gets the busy signal (`busyText`), one refused at shutdown or for a
 * failed State the unavailable one (`unavailableText`), as does a message accepted and then
 * `dropped` without its handler running. Reactions and raw dispatches have no visible signal:
 * their refusal stays observable through the runtime's `admission_rejected` observation. A
 * non-rt error is a `dispatch_error` notice. Resolves once the dispatch resolved (a deferred
 * handler runs on); never rejects.
 */
export async function dispatchGatewayEvent(
  deps: GatewayDispatchDeps,
  runtime: RuntimeHandle,
  event: RtEvent,
): Promise<void> {
  const target = visibleTarget(event);
  try {
    const result = await runtime.dispatch(event);
    if (result.status === 'accepted' && target !== undefined) {
      void result.settled.then((finished) => {
        if (finished.outcome === 'dropped') {
          deps.refusals.start({ event, target, text: deps.busyText });
        }
      });
    }
  } catch (error) {
    const kind = classifyRefusal(error);
    if (kind === 'unexpected') {
      deps.notice('dispatch_error', { shape: event.shape, eventId: event.id }, error);
    }
    if (target !== undefined) {
      deps.refusals.start({
        event,
        target,
        text: kind === 'busy' ? deps.busyText : deps.unavailableText,
      });
    }
  }
}
