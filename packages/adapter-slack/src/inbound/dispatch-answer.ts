import type { DispatchResult, FinishedDelivery, RtEvent } from '@rt/core';
import type { RuntimeHandle } from '@rt/core/adapter';
import { type AckClock, type AnswerDeliveryOptions, answerDelivery } from '@rt/core/adapter';
import type { Answer } from '../respond/answer.js';
import { lateRefusalFor } from '../respond/late-refusal.js';
import { refusalFor } from '../respond/refusal.js';
import { answerForResult } from '../respond/result-answer.js';
import type { SlackCoreDeps } from './deps.js';

/**
 * A deferred direct invocation was acknowledged, then dropped without running (its scope was
 * busy): tell the user it is busy, after the fact, or make it observable where nothing is visible.
 */
function signalUnrun(deps: SlackCoreDeps, event: RtEvent, _finished: FinishedDelivery): void {
  const followUp = lateRefusalFor(event, deps.options.busyText);
  if (followUp === undefined) {
    deps.notice('dropped_without_signal', { shape: event.shape, eventId: event.id });
    return;
  }
  deps.followUps.start({ event, followUp });
}

/**
 * Dispatches `event` and resolves its answer no later than `ackDeadlineMs` after its
 * `receivedAt` (on the adapter's `clock`), on the kit's `answerDelivery`. Sync dispatches get the
 * sync deadline's signal, which fires earlier. Refusals get the shape-aware refusal with busy or
 * unavailable wording; an unexpected error is also observed as `dispatch_error`.
 *
 * When the deadline comes first (a sync handler ignoring its signal, a State slow to mark), the
 * answer is the refusal with unavailable wording and an `adapter_notice` named
 * `ack_deadline_passed` records it; the dispatch goes on unobserved by this delivery. Its late
 * result starts no second answer and no busy signal, and it can never reject. If it turns out
 * accepted, the delivery is handled: for the Events API the `retry` makes Slack redeliver, and the
 * redelivery meets the dedupe mark and is answered as a duplicate, so the event is handled once;
 * if the mark failed or was refused instead, nothing is marked and the redelivery carries the
 * event. A direct invocation has no retry: its user saw the unavailable signal, yet a
 * late-accepted handler runs.
 */
export function dispatchAndAnswer(
  deps: SlackCoreDeps,
  runtime: RuntimeHandle,
  event: RtEvent,
  clock?: AckClock,
): Promise<Answer> {
  return answerDelivery<Answer>(new SlackDelivery(deps, runtime, event, clock));
}

/**
 * One delivery's `answerDelivery` options: its hooks are methods on the prototype, so answering
 * builds no closures per delivery.
 */
class SlackDelivery implements AnswerDeliveryOptions<Answer> {
  readonly #deps: SlackCoreDeps;
  readonly runtime: RuntimeHandle;
  readonly event: RtEvent;
  readonly clock?: AckClock;
  readonly onAcceptedUnrun?: (finished: FinishedDelivery) => void;

  constructor(deps: SlackCoreDeps, runtime: RuntimeHandle, event: RtEvent, clock?: AckClock) {
    this.#deps = deps;
    this.runtime = runtime;
    this.event = event;
    if (clock !== undefined) this.clock = clock;
    // Events API callbacks are not direct invocations: nothing to tell a user.
    if (event.shape !== 'event_callback') {
      this.onAcceptedUnrun = (finished) => signalUnrun(deps, event, finished);
    }
  }

  get options(): SlackCoreDeps['options'] {
    return this.#deps.options;
  }

  get notice(): SlackCoreDeps['notice'] {
    return this.#deps.notice;
  }

  answer(result: DispatchResult): Answer {
    return answerForResult(this.event, result, this.#deps.options);
  }

  refuse(text: string): Answer {
    return refusalFor(this.event, text);
  }
}
