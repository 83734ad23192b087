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

/** Calls an adapter hook; what it throws is contained (a hook must never break the answer). */
function contained(run: () => void): void {
  try {
    run();
  } catch {
    // A failing hook is the adapter's bug; the answer still goes out.
  }
}

/**
 * One `answerWithin`: the dispatch and the clock's deadline, whichever comes first answers. One
 * object per delivery, listening to the clock itself (no `expired` promise, no `Promise.race`),
 * and one reaction on the dispatch's promise (no async frames between the dispatch and the
 * answer).
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

  /** Dispatches; the dispatch's settlement answers unless the deadline answered first. */
  start(): void {
    const { runtime, event, clock } = this.#options;
    let dispatching: Promise<DispatchResult>;
    try {
      const sync = runtime.modeFor(event) === 'sync';
      dispatching = runtime.dispatch(event, sync ? { signal: clock.syncSignal } : undefined);
    } catch (error) {
      // A dispatch that throws instead of rejecting is answered on a later turn, like a rejection.
      queueMicrotask(() => this.refused(error));
      return;
    }
    dispatching.then(
      (result) => this.resolved(result),
      (error) => this.refused(error),
    );
  }

  /** The dispatch resolved: its answer (a mapping that throws is refused `unavailable`). */
  resolved(result: DispatchResult): void {
    const options = this.#options;
    let answer: A;
    try {
      answer = options.answer(result);
    } catch (error) {
      contained(() => options.onUnexpected?.(error));
      this.#refuseWith('unavailable', error);
      return;
    }
    this.#settle(answer, result);
  }

  /** The dispatch was refused (or failed): classified, then mapped by `refuse`. */
  refused(error: unknown): void {
    const kind = classifyRefusal(error);
    if (kind === 'unexpected') contained(() => this.#options.onUnexpected?.(error));
    this.#refuseWith(kind === 'busy' ? 'busy' : 'unavailable', error);
  }

  /** Answers `refuse(kind)`; a throwing `refuse` (the caller's bug) rejects, unless answered. */
  #refuseWith(kind: 'busy' | 'unavailable', error: unknown): void {
    let answer: A;
    try {
      answer = this.#options.refuse(kind, error);
    } catch (failure) {
      if (!this.#done) {
        this.#done = true;
        this.#reject(failure);
      }
      return;
    }
    this.#settle(answer, undefined);
  }

  /** Answers with `answer` unless the deadline answered first (then the late answer is dropped). */
  #settle(answer: A, result: DispatchResult | undefined): void {
    if (this.#done) return;
    this.#done = true;
    const options = this.#options;
    if (result?.status === 'accepted' && options.onAcceptedUnrun !== undefined) {
      void result.settled.then((finished) => {
        // Called on `options` (a method keeps its `this`).
        if (finished.outcome === 'dropped') contained(() => options.onAcceptedUnrun?.(finished));
      });
    }
    this.#resolve(answer);
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
    race.start();
  });
}
