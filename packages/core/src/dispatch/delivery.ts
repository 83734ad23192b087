import type { Adapter } from '../adapter/adapter.js';
import type { AdmissionSlot } from '../admission/admission-controller.js';
import type { RtEvent } from '../event/event.js';
import type { DispatchMode } from '../observe/observation.js';
import type { FinishedDelivery, HandledResult } from '../outcomes/outcome.js';
import type { Handler } from '../routing/handler.js';
import { Cancellation } from '../util/cancellation.js';

/**
 * How far one delivery got, fields of the delivery record itself (no object of its own), written
 * by the runtime only: shutdown decides with it which deliveries it ends at once (handler not
 * started), which it waits for (running) and which already have their outcome (handler finished,
 * lock release still in flight).
 */
export interface DeliveryProgress {
  /**
   * True once its first handler was called (timed or not): only such a delivery can be abandoned
   * by shutdown, and only it carries handler timing.
   */
  handlerStarted: boolean;
  /**
   * Epoch ms when its handlers started (they may have finished since); `undefined` until then,
   * and always when no observer is registered (nobody would read it). Reported as
   * `dispatch_finished.handlerStartedAt`.
   */
  handlerStartedAt: number | undefined;
  /** What its handlers returned, once they finished. */
  handled: HandledResult | undefined;
  /** Ms its handlers ran, once they finished (`dispatch_finished.handlerMs`). */
  handlerMs: number | undefined;
  /** Its terminal outcome, once recorded: nothing about it is recorded or observed again. */
  finished: FinishedDelivery | undefined;
}

/**
 * One accepted delivery on its way through a strategy. `controller` is its life: it aborts on
 * the detach timeout (deferred), at shutdown's grace deadline, or with the adapter's own signal
 * (sync). Strategies that park it also watch the runtime's shutdown signal. It is a lazy
 * `Cancellation`: no `AbortSignal` exists unless a handler reads `ctx.signal`.
 */
export interface Delivery extends DeliveryProgress {
  readonly event: RtEvent;
  readonly handlers: readonly Handler[];
  readonly adapter: Adapter;
  readonly mode: DispatchMode;
  /** Lock or coalescing scope key (adapter- and tenant-namespaced). */
  readonly scopeKey: string;
  readonly controller: Cancellation;
  /** Epoch ms when dispatch accepted it. */
  readonly acceptedAt: number;
  /** Deferred only: the admission slot, released by the runtime after the strategy resolves. */
  readonly slot: AdmissionSlot | undefined;
  /** The runner's list of live deliveries (`LiveDeliveries`): its neighbours while in it. */
  livePrev: Delivery | undefined;
  liveNext: Delivery | undefined;
}

/** What `newDelivery` fills in itself. */
type OwnFields = keyof DeliveryProgress | 'controller' | 'acceptedAt' | 'livePrev' | 'liveNext';

/** A delivery accepted now, with fresh progress and its own controller. */
export function newDelivery(fields: Omit<Delivery, OwnFields>): Delivery {
  // A literal, not a spread: one object shape for every delivery, its progress in the same
  // record (no second object per delivery), fields in-object.
  return {
    event: fields.event,
    handlers: fields.handlers,
    adapter: fields.adapter,
    mode: fields.mode,
    scopeKey: fields.scopeKey,
    slot: fields.slot,
    controller: new Cancellation(),
    acceptedAt: Date.now(),
    handlerStarted: false,
    handlerStartedAt: undefined,
    handled: undefined,
    handlerMs: undefined,
    finished: undefined,
    livePrev: undefined,
    liveNext: undefined,
  };
}
