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
 * A deferred delivery's `accepted` dispatch result, and the sink its strategy hands its result
 * to: one record. `settled` is built on first read (most callers never read it, so a running
 * delivery holds no promise for it), resolved with the finished delivery however late it is read;
 * behind a strategy without `start` it is that strategy's promise continued (`follow`). The first
 * result counts; later ones are ignored.
 */
export class AcceptedDelivery implements ResultSink {
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

  handled(result: HandledResult): void {
    const finished = this.#end(result);
    if (finished === undefined) return;
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.(finished);
  }

  /**
   * Ends the delivery with what a strategy without `start` resolves (a rejection is `failed`):
   * `settled` is then the continuation of that promise itself, not a second promise.
   */
  follow(running: Promise<HandledResult>): void {
    this.#settled = running.then(
      (result) => this.#end(result) ?? this.#finished!,
      (error: unknown) => this.#end({ outcome: 'failed', error }) ?? this.#finished!,
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
