import type { DispatchResult, RtEvent } from '@rt/core';
import type { AckClock, AnswerDeliveryOptions, RuntimeHandle } from '@rt/core/adapter';
import { answerDelivery } from '@rt/core/adapter';
import { InteractionResponseType } from 'discord-api-types/v10';
import { flattenOptions } from '../normalize/command-options.js';
import { normalizeInteraction } from '../normalize/normalize-interaction.js';
import type { ReplyState } from '../outbound/reply-state.js';
import type { ParsedInteraction } from '../parse/parse-interaction.js';
import { answerForResult, refusalFor } from '../respond/answer.js';
import { holdsBusyChoice } from '../respond/busy-choice.js';
import { type DiscordCallback, ephemeralMessage, pong } from '../respond/callback.js';
import { lateBusySignalFor } from '../respond/late-refusal.js';
import type { InboundDeps } from './inbound-deps.js';

/** What the inbound core decided for one verified, parsed body. */
export type InboundAnswer =
  /** Send `callback`; call `delivered()` once the transport has handed it over. */
  | { readonly type: 'callback'; readonly callback: DiscordCallback; delivered(): void }
  /** The adapter is not attached to a runtime yet (HTTP: 503). */
  | { readonly type: 'not_attached' };

function answered(callback: DiscordCallback, state?: ReplyState): InboundAnswer {
  return {
    type: 'callback',
    callback,
    delivered: () =>
      state?.delivered(
        callback.type === InteractionResponseType.DeferredChannelMessageWithSource
          ? 'deferred_message'
          : 'answered',
      ),
  };
}

/** The ephemeral decision for `event`; a throwing decision makes it ephemeral (the private side). */
function ephemeralFor(deps: InboundDeps, event: RtEvent): boolean {
  const { ephemeral } = deps.options;
  if (typeof ephemeral === 'boolean') return ephemeral;
  try {
    return ephemeral(event) === true;
  } catch (error) {
    deps.notice('ephemeral_decision_failed', { shape: event.shape, eventId: event.id }, error);
    return true;
  }
}

function carriesBusyChoice(event: RtEvent): boolean {
  if (event.kind !== 'command') return false;
  const data = (event.payload as { data?: { options?: unknown } }).data;
  return holdsBusyChoice(flattenOptions(data?.options).options);
}

/**
 * Dispatches a normalised interaction on the kit's `answerDelivery`; the callback is the handler's
 * form, else the result's answer or the refusal.
 */
function dispatchInteraction(
  deps: InboundDeps,
  runtime: RuntimeHandle,
  event: RtEvent,
  clock: AckClock | undefined,
): Promise<InboundAnswer> {
  let state: ReplyState;
  let answering: Promise<DiscordCallback>;
  try {
    const ephemeral = ephemeralFor(deps, event);
    state = deps.replies.open(event, ephemeral, runtime.modeFor(event) === 'sync');
    answering = answerDelivery<DiscordCallback>(
      new InteractionDelivery(deps, runtime, event, clock, state, ephemeral),
    );
  } catch (error) {
    return Promise.reject(error);
  }
  // One reaction on the kit's answer, no async frame.
  return answering.then((callback) => answered(callback, state));
}

/**
 * One interaction's `answerDelivery` options: its hooks are methods on the prototype, so
 * answering builds no closures per interaction.
 */
class InteractionDelivery implements AnswerDeliveryOptions<DiscordCallback> {
  readonly #deps: InboundDeps;
  readonly #state: ReplyState;
  readonly #ephemeral: boolean;
  readonly runtime: RuntimeHandle;
  readonly event: RtEvent;
  readonly clock?: AckClock;

  constructor(
    deps: InboundDeps,
    runtime: RuntimeHandle,
    event: RtEvent,
    clock: AckClock | undefined,
    state: ReplyState,
    ephemeral: boolean,
  ) {
    this.#deps = deps;
    this.#state = state;
    this.#ephemeral = ephemeral;
    this.runtime = runtime;
    this.event = event;
    if (clock !== undefined) this.clock = clock;
  }

  get options(): InboundDeps['options'] {
    return this.#deps.options;
  }

  get notice(): InboundDeps['notice'] {
    return this.#deps.notice;
  }

  answer(result: DispatchResult): DiscordCallback {
    return (
      (result.status === 'completed' ? this.#state.form : undefined) ??
      answerForResult(this.event, result, this.#deps.options, this.#ephemeral)
    );
  }

  refuse(text: string): DiscordCallback {
    return refusalFor(this.event, text);
  }

  onAcceptedUnrun(): void {
    const signal = lateBusySignalFor(this.event, this.#deps.options.busyText);
    if (signal !== undefined) this.#deps.followUps.start(signal);
  }
}

/**
 * The transport-neutral core: a verified, parsed interaction in, its callback out (docs/contract.md §9.2).
 * PING is answered PONG whatever the runtime's state (never gated, even before `attach`). Before
 * `attach`: `not_attached`. A command holding the busy autocomplete choice is answered with the
 * busy text undispatched. Everything else is normalised and dispatched on the adapter kit: the
 * ephemeral decision is taken first (Discord fixes it at the ack), the answer is ready by
 * `ackDeadlineMs` after receipt at the latest, and a deferred interaction dropped after its ack
 * gets a late busy signal. `receivedAt` is read from the adapter's `clock` on arrival; `clock`
 * is the deadlines the transport started then (the HTTP flow's, which it disposes), else they
 * start from `receivedAt` on that same clock. Throws only on a bug (the transport answers 500).
 */
export function answerInteraction(
  deps: InboundDeps,
  parsed: ParsedInteraction,
  receivedAt: number,
  clock?: AckClock,
): Promise<InboundAnswer> | InboundAnswer {
  if (parsed.type === 'ping') return answered(pong());
  const runtime = deps.runtime();
  if (runtime === undefined) return { type: 'not_attached' };
  const event = normalizeInteraction(parsed.shape, parsed.interaction, {
    adapter: deps.options.name,
    receivedAt,
  });
  if (carriesBusyChoice(event)) {
    deps.notice('busy_choice_submitted', { shape: event.shape, eventId: event.id });
    return answered(ephemeralMessage(deps.options.busyText));
  }
  return deps.answering.track(dispatchInteraction(deps, runtime, event, clock));
}
