import type { RuntimeHandle } from '../adapter/adapter.js';
import type { DispatchResult } from '../dispatch/dispatch-result.js';
import type { RtEvent } from '../event/event.js';
import type { FinishedDelivery } from '../outcomes/outcome.js';
import { type AckClock, type AckDeadlineListener, onAckDeadline } from './ack-clock.js';
import { classifyRefusal } from './refusal.js';

/** Options of `answerWithin`, generic over the transport's answer type `A`. */
export interface AnswerWithinOptions<A> {
  /** The runtime to dispatch to (the handle `attach` gave the adapter). */
  readonly runtime: RuntimeHandle;
  /** The normalised delivery; its mode (`runtime.modeFor`) decides whether `syncSignal` applies. */
  readonly event: RtEvent;
  /** The delivery's deadlines (counted from receipt). Sync dispatches get `clock.syncSignal`. */
  readonly clock: AckClock;
  /** Maps a resolved dispatch (accepted, duplicate, unrouted, completed) to the answer. */
  answer(result: DispatchResult): A;
  /**
   * Maps a refused dispatch to the answer: `busy` for capacity, `unavailable` for shutdown, a
   * failed prelude, an unexpected error, a mapping that threw, and the passed deadline.
   */
  refuse(kind: 'busy' | 'unavailable', error: unknown): A;
  /** A non-rt error from dispatch (or from `answer`): a bug the adapter observes. */
  onUnexpected?(error: unknown): void;
  /** The acknowledgement deadline passed before the dispatch produced its answer. */
  onDeadline?(): void;
  /**
   * A deferred delivery was accepted (and acknowledged), then ended `dropped` without its handler
   * running: only a follow-up can still tell its user. Not called when the deadline answered first.
   */
  onAcceptedUnrun?(finished: FinishedDelivery): void;
}

type Settled<A> = { readonly answer: A; readonly result?: DispatchResult };

/** Calls an adapter hook; what it throws is contained (a hook must never break the answer). */
function contained(run: () => void): void {
  try {
    run();
  } catch {
    // A failing hook is the adapter's bug; the answer still goes out.
  }
}

async function dispatchOnce<A>(options: AnswerWithinOptions<A>): Promise<Settled<A>> {
  const { runtime, event, clock } = options;
  let result: DispatchResult;
  try {
    const sync = runtime.modeFor(event) === 'sync';
    result = await runtime.dispatch(event, sync ? { signal: clock.syncSignal } : undefined);
  } catch (error) {
    const kind = classifyRefusal(error);
    if (kind === 'unexpected') contained(() => options.onUnexpected?.(error));
    return { answer: options.refuse(kind === 'busy' ? 'busy' : 'unavailable', error) };
  }
  try {
    return { result, answer: options.answer(result) };
  } catch (error) {
    contained(() => options.onUnexpected?.(error));
    return { result, answer: options.refuse('unavailable', error) };
  }
}

/**
 * One `answerWithin`: the dispatch and the clock's deadline, whichever comes first answers. One
 * object per delivery, listening to the clock itself (no `expired` promise, no `Promise.race`).
 */
class AnswerRace<A> implements AckDeadlineListener {
  readonly #options: AnswerWithinOptions<A>;
  readonly #resolve: (answer: A) => void;
  readonly #reject: (error: unknown) => void;
  #done = false;

  constructor(
    options: AnswerWithinOptions<A>,
    resolve: (answer: A) => void,
    reject: (error: unknown) => void,
  ) {
    this.#options = options;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** Dispatches, then answers unless the deadline answered first. Never rejects. */
  async run(): Promise<void> {
    let settled: Settled<A>;
    try {
      settled = await dispatchOnce(this.#options);
    } catch (error) {
      // Only a throwing `refuse` (the caller's bug) gets here.
      if (!this.#done) {
        this.#done = true;
        this.#reject(error);
      }
      return;
    }
    if (this.#done) return;
    this.#done = true;
    const { result } = settled;
    const options = this.#options;
    if (result?.status === 'accepted' && options.onAcceptedUnrun !== undefined) {
      void result.settled.then((finished) => {
        // Called on `options` (a method keeps its `this`).
        if (finished.outcome === 'dropped') contained(() => options.onAcceptedUnrun?.(finished));
      });
    }
    this.#resolve(settled.answer);
  }

  ackDeadlinePassed(): void {
    if (this.#done) return;
    this.#done = true;
    const options = this.#options;
    contained(() => options.onDeadline?.());
    try {
      this.#resolve(
        options.refuse('unavailable', new DOMException('ack deadline passed', 'TimeoutError')),
      );
    } catch (error) {
      this.#reject(error);
    }
  }
}

/**
 * Dispatches `event` and resolves its answer no later than `clock.expired` (the acknowledgement
 * deadline, counted from receipt). Sync dispatches get `clock.syncSignal`, which fires earlier.
 * Refusals are classified by `classifyRefusal` and mapped by `refuse`.
 *
 * When the deadline comes first, `onDeadline` is called and the answer is `refuse('unavailable')`;
 * the dispatch goes on, and its late result is suppressed: no second answer, no
 * `onAcceptedUnrun` (an unexpected late error is still reported to `onUnexpected`). When the
 * dispatch resolves `accepted` in time, `onAcceptedUnrun` is called if it later ends `dropped`.
 * Never rejects (a `refuse` that throws is the only exception, and is the caller's bug).
 */
export function answerWithin<A>(options: AnswerWithinOptions<A>): Promise<A> {
  return new Promise<A>((resolve, reject) => {
    const race = new AnswerRace(options, resolve, reject);
    onAckDeadline(options.clock, race);
    void race.run();
  });
}
