import type { FinishedDelivery, HandledResult } from '../outcomes/outcome.js';
import type { ResultSink } from '../strategies/strategy.js';
import type { WheelTimer } from '../util/timer-wheel.js';
import type { Delivery } from './delivery.js';

/** What ends a deferred delivery: frees its slot, records its outcome (the runner's, shared). */
export type FinishDeferred = (
  timer: WheelTimer<Delivery>,
  result: HandledResult,
) => FinishedDelivery;

/**
 * A deferred delivery's `accepted` dispatch result, which also keeps its end: `settled` is built
 * on first read (most callers never read it, so a running delivery holds no promise for it),
 * resolved with the finished delivery however late it is read; behind a strategy without `start`
 * it is that strategy's promise continued (`follow`). The first result counts; later ones are
 * ignored. What ends it is static (`sinkOf`, `end`, `follow`): the result a caller of `dispatch`
 * holds offers `status` and `settled` and nothing that could end the delivery early.
 */
export class AcceptedDelivery {
  readonly status = 'accepted' as const;
  readonly #finish: FinishDeferred;
  #timer: WheelTimer<Delivery> | undefined;
  #finished: FinishedDelivery | undefined;
  #settled: Promise<FinishedDelivery> | undefined;
  #resolve: ((finished: FinishedDelivery) => void) | undefined;

  /** `timer`: the delivery's detach timeout, whose target is the delivery. */
  constructor(finish: FinishDeferred, timer: WheelTimer<Delivery>) {
    this.#finish = finish;
    this.#timer = timer;
  }

  /** Resolves (never rejects) once the delivery reached its terminal outcome and freed its slot. */
  get settled(): Promise<FinishedDelivery> {
    if (this.#settled === undefined) {
      if (this.#finished !== undefined) this.#settled = Promise.resolve(this.#finished);
      else {
        this.#settled = new Promise<FinishedDelivery>((resolve) => {
          this.#resolve = resolve;
        });
      }
    }
    return this.#settled;
  }

  /** The sink a strategy with `start` hands `accepted`'s result to. */
  static sinkOf(accepted: AcceptedDelivery): ResultSink {
    return new AcceptedSink(accepted);
  }

  /** Ends `accepted` with `result` (the first result counts) and resolves `settled` if read. */
  static end(accepted: AcceptedDelivery, result: HandledResult): void {
    const finished = accepted.#end(result);
    if (finished === undefined) return;
    const resolve = accepted.#resolve;
    accepted.#resolve = undefined;
    resolve?.(finished);
  }

  /**
   * Ends `accepted` with what a strategy without `start` resolves (a rejection is `failed`):
   * `settled` is then the continuation of that promise itself, not a second promise.
   */
  static follow(accepted: AcceptedDelivery, running: Promise<HandledResult>): void {
    accepted.#settled = running.then(
      (result) => accepted.#end(result) ?? accepted.#finished!,
      (error: unknown) => accepted.#end({ outcome: 'failed', error }) ?? accepted.#finished!,
    );
  }

  /** The first result: frees the slot and records the outcome; `undefined` for a later one. */
  #end(result: HandledResult): FinishedDelivery | undefined {
    const timer = this.#timer;
    if (timer === undefined) return undefined;
    this.#timer = undefined;
    this.#finished = this.#finish(timer, result);
    return this.#finished;
  }
}

/** What a strategy holds of an accepted delivery: the way to end it, nothing else. */
class AcceptedSink implements ResultSink {
  readonly #accepted: AcceptedDelivery;

  constructor(accepted: AcceptedDelivery) {
    this.#accepted = accepted;
  }

  handled(result: HandledResult): void {
    AcceptedDelivery.end(this.#accepted, result);
  }
}
