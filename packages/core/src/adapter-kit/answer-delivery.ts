import type { RuntimeHandle } from '../adapter/adapter.js';
import type { DispatchResult } from '../dispatch/dispatch-result.js';
import type { RtEvent } from '../event/event.js';
import type { FinishedDelivery } from '../outcomes/outcome.js';
import { type AckClock, startAckClock } from './ack-clock.js';
import type { ResolvedAnswerOptions } from './answer-options.js';
import { type AnswerWithinOptions, answerWithin } from './answer-within.js';
import type { KitNoticeName, NoticeEmitter } from './notices.js';

/** Options of `answerDelivery`, generic over the transport's answer type `A`. */
export interface AnswerDeliveryOptions<A> {
  /** The runtime to dispatch to. */
  readonly runtime: RuntimeHandle;
  /** The normalised delivery; its `receivedAt` (read from `options.clock`) starts the deadlines. */
  readonly event: RtEvent;
  /**
   * The deadlines the transport started on arrival (the HTTP flow's), which it disposes. Absent:
   * they are started here from `event.receivedAt` on `options.clock`, and disposed here.
   */
  readonly clock?: AckClock;
  /** The adapter's resolved answer options: deadlines, clock, busy and unavailable texts. */
  readonly options: Pick<
    ResolvedAnswerOptions<string>,
    'ackDeadlineMs' | 'syncDeadlineMs' | 'clock' | 'busyText' | 'unavailableText'
  >;
  /** The adapter's notice emitter (`dispatch_error`, `ack_deadline_passed`). */
  readonly notice: NoticeEmitter<KitNoticeName>;
  /** Maps a resolved dispatch to the answer (like `answerWithin`'s `answer`). */
  answer(result: DispatchResult): A;
  /** The shape-aware refusal carrying `text`: `busyText` for capacity, else `unavailableText`. */
  refuse(text: string, kind: 'busy' | 'unavailable'): A;
  /** A deferred delivery acknowledged, then dropped unrun (like `answerWithin`'s). */
  onAcceptedUnrun?(finished: FinishedDelivery): void;
}

/**
 * `answerWithin`, wired the way every adapter wires it: the deadlines start from
 * `event.receivedAt` and are compared on `options.clock` (one clock, so a skewed or fixed clock
 * never fires a deadline early or late); a refusal carries the busy or unavailable text; a non-rt
 * error from dispatch is a `dispatch_error` notice, a passed deadline an `ack_deadline_passed`
 * notice (`detail`: `shape`, `eventId`, and `deadlineMs`). A clock started here is disposed when
 * the answer is ready. Never rejects (a `refuse` that throws is the caller's bug).
 */
export function answerDelivery<A>(delivery: AnswerDeliveryOptions<A>): Promise<A> {
  // The transport's clock (the HTTP flow's): nothing to dispose here, so no async frame.
  if (delivery.clock !== undefined) return answerWithin<A>(new KitAnswer(delivery, delivery.clock));
  return answerOnOwnClock(delivery);
}

/** `answerDelivery` with deadlines started here from `event.receivedAt`, disposed here. */
async function answerOnOwnClock<A>(delivery: AnswerDeliveryOptions<A>): Promise<A> {
  const { event, options } = delivery;
  const clock = startAckClock({
    ackDeadlineMs: options.ackDeadlineMs,
    syncDeadlineMs: options.syncDeadlineMs,
    receivedAt: event.receivedAt,
    now: options.clock,
  });
  try {
    return await answerWithin<A>(new KitAnswer(delivery, clock));
  } finally {
    clock.dispose();
  }
}

/**
 * `answerDelivery`'s options for `answerWithin`: one object whose hooks are methods on its
 * prototype (no closures per delivery); notice details are built only when a notice is emitted.
 */
class KitAnswer<A> implements AnswerWithinOptions<A> {
  readonly #delivery: AnswerDeliveryOptions<A>;
  readonly clock: AckClock;
  /** Present only when the delivery has one (`answerWithin` then watches the outcome). */
  readonly onAcceptedUnrun?: (finished: FinishedDelivery) => void;

  constructor(delivery: AnswerDeliveryOptions<A>, clock: AckClock) {
    this.#delivery = delivery;
    this.clock = clock;
    if (delivery.onAcceptedUnrun !== undefined) this.onAcceptedUnrun = this.#acceptedUnrun;
  }

  /** Forwards to the delivery's hook, called on the delivery (a method keeps its `this`). */
  #acceptedUnrun(this: KitAnswer<A>, finished: FinishedDelivery): void {
    this.#delivery.onAcceptedUnrun?.(finished);
  }

  get runtime(): RuntimeHandle {
    return this.#delivery.runtime;
  }

  get event(): RtEvent {
    return this.#delivery.event;
  }

  answer(result: DispatchResult): A {
    return this.#delivery.answer(result);
  }

  refuse(kind: 'busy' | 'unavailable'): A {
    const { options } = this.#delivery;
    return this.#delivery.refuse(
      kind === 'busy' ? options.busyText : options.unavailableText,
      kind,
    );
  }

  onUnexpected(error: unknown): void {
    const { event, notice } = this.#delivery;
    notice('dispatch_error', { shape: event.shape, eventId: event.id }, error);
  }

  onDeadline(): void {
    const { event, notice, options } = this.#delivery;
    notice('ack_deadline_passed', {
      shape: event.shape,
      eventId: event.id,
      deadlineMs: options.ackDeadlineMs,
    });
  }
}
