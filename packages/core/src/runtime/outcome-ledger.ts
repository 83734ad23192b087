import type { Delivery, DeliveryProgress } from '../dispatch/delivery.js';
import { type EventRef, eventRef, type RtEvent } from '../event/event.js';
import type { DispatchMode, Observation } from '../observe/observation.js';
import {
  type FinishedDelivery,
  type HandledResult,
  OUTCOMES,
  type Outcome,
} from '../outcomes/outcome.js';

/**
 * The record of terminal outcomes (docs/contract.md §4, invariant 3): counts by outcome, the deliveries that
 * still owe one (so shutdown can wait for the last of them), and the `dispatch_finished`
 * observation every outcome emits. A delivery's outcome is recorded once: later results for it
 * (a strategy resolving after shutdown already decided) are ignored.
 */
export class OutcomeLedger {
  readonly #counts: Record<Outcome, number> = Object.fromEntries(
    OUTCOMES.map((outcome) => [outcome, 0]),
  ) as Record<Outcome, number>;
  readonly #emit: (observation: Observation) => void;
  readonly #observing: (outcome: Outcome) => boolean;
  #owed = 0;
  #drainWaiters: (() => void)[] = [];

  /** `observing` says whether anyone reads an outcome's `dispatch_finished`: built only then. */
  constructor(
    emit: (observation: Observation) => void,
    observing: (outcome: Outcome) => boolean = () => true,
  ) {
    this.#emit = emit;
    this.#observing = observing;
  }

  /** Deliveries admitted (past routing and admission) that have no terminal outcome yet. */
  get owed(): number {
    return this.#owed;
  }

  /** A copy of the counts so far. */
  counts(): Record<Outcome, number> {
    return { ...this.#counts };
  }

  /** Records a delivery that now owes an outcome. */
  open(): void {
    this.#owed += 1;
  }

  /**
   * Records `event`'s terminal outcome and emits `dispatch_finished`; `wasOpen` when the delivery
   * had been `open`ed (it no longer owes one), `since` the epoch ms its duration counts from,
   * `progress` (accepted deliveries) what its handlers' timing was.
   */
  record(
    event: RtEvent,
    mode: DispatchMode,
    result: HandledResult,
    since: number,
    wasOpen: boolean,
    progress?: DeliveryProgress,
  ): FinishedDelivery {
    const finished = finishedOf(result, eventRef(event), Math.max(0, Date.now() - since));
    if (this.#observing(result.outcome)) {
      this.#emit({
        type: 'dispatch_finished',
        at: Date.now(),
        receivedAt: event.receivedAt,
        event: finished.event,
        mode,
        outcome: result.outcome,
        durationMs: finished.durationMs,
        handlerStartedAt: progress?.handlerStartedAt,
        handlerMs: progress?.handlerMs,
        ...(result.error === undefined ? {} : { error: result.error }),
      });
    }
    this.#counts[result.outcome] += 1;
    if (wasOpen) this.#close();
    return finished;
  }

  /**
   * Like `record` for an outcome nobody awaits (refusals, duplicates, unrouted events): counts
   * it and emits `dispatch_finished`, building nothing when nobody observes. The cheapest way to
   * an outcome, which is what the rejection path takes.
   */
  note(event: RtEvent, mode: DispatchMode, result: HandledResult, since: number, wasOpen: boolean) {
    if (this.#observing(result.outcome)) {
      this.record(event, mode, result, since, wasOpen);
      return;
    }
    this.#counts[result.outcome] += 1;
    if (wasOpen) this.#close();
  }

  /**
   * Records an accepted delivery's terminal outcome once: the first call records `result`, later
   * calls return what was recorded and emit nothing.
   */
  settle(delivery: Delivery, result: HandledResult): FinishedDelivery {
    delivery.finished ??= this.record(
      delivery.event,
      delivery.mode,
      result,
      delivery.acceptedAt,
      true,
      delivery,
    );
    return delivery.finished;
  }

  /** Resolves when no delivery owes an outcome. */
  drained(): Promise<void> {
    if (this.#owed === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  #close(): void {
    this.#owed -= 1;
    if (this.#owed > 0) return;
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * `{ ...result, event, durationMs }`, with the same own keys in the same order. A completed
 * result (`outcome` and `response`) is built as a literal: spreading results of several shapes
 * makes the spread's inline cache megamorphic, which cost microseconds per delivery in the
 * strategies benchmark's profile; the other shapes (rarer) are spread.
 */
function finishedOf(result: HandledResult, event: EventRef, durationMs: number): FinishedDelivery {
  if ('response' in result && !('error' in result)) {
    return { outcome: result.outcome, response: result.response, event, durationMs };
  }
  return { ...result, event, durationMs };
}
