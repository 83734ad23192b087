import type { Adapter } from '../adapter/adapter.js';
import { hasErrorCode } from '../errors.js';
import type { RtEvent } from '../event/event.js';
import type { HeldLock } from '../locks/lock-manager.js';
import type { HandlerCaller } from '../observe/handler-instrumentation.js';
import type { HandledResult, Outcome } from '../outcomes/outcome.js';
import type { HandlerContext } from '../routing/handler.js';
import { Cancellation, type CancelSource } from '../util/cancellation.js';
import { contextStream } from './context-stream.js';
import type { Delivery } from './delivery.js';

/** What a strategy adds to the handler context. */
export interface InvokeExtras {
  readonly lock?: HeldLock;
  readonly skipped?: readonly RtEvent[];
  readonly batch?: readonly RtEvent[];
  /** Further signals that end the handler's run (e.g. a burst batch's own controller). */
  readonly signals?: readonly CancelSource[];
  /** burst: every member delivery the run serves (the invoked delivery first); default itself. */
  readonly members?: readonly Delivery[];
}

/** Maps the reason a handler's signal aborted with to its terminal outcome. */
export function outcomeForAbort(reason: unknown): Outcome {
  if (hasErrorCode(reason, 'RT_PREEMPTED')) return 'preempted';
  if (hasErrorCode(reason, 'RT_SHUTDOWN')) return 'shutdown';
  return 'timed-out';
}

/**
 * Runs `delivery`'s handlers one after another, in registration order, under one context.
 * A handler that throws makes the result `failed` (first error kept) but the others still run;
 * once the signal aborts no further handler starts, and the result is the abort's outcome
 * (`timed-out`, `preempted`, `shutdown`) however the running handler ended. Resolves only after
 * the last started handler's promise settled; never rejects. With `callHandler` (the observers'
 * `aroundHandler`s), each handler is called through it. The run's cancellation is lazy:
 * `ctx.signal` becomes a real `AbortSignal` only when a handler (or `ctx.reply`) reads it.
 */
export async function invokeHandlers(
  delivery: Delivery,
  extras: InvokeExtras = {},
  callHandler?: HandlerCaller,
): Promise<HandledResult> {
  const controller = new Cancellation();
  const detach =
    extras.signals === undefined && extras.lock === undefined
      ? controller.follow([delivery.controller])
      : controller.follow([
          delivery.controller,
          ...(extras.signals ?? []),
          extras.lock?.cancellation,
        ]);
  const ctx = new RunContext(delivery, controller, extras);
  let response: unknown;
  let error: unknown;
  let failed = false;
  try {
    for (const handler of delivery.handlers) {
      if (controller.aborted) break;
      try {
        const value = await (callHandler ? callHandler(handler, ctx) : handler(ctx));
        if (response === undefined && value !== undefined) response = value;
      } catch (thrown) {
        if (!failed) {
          failed = true;
          error = thrown;
        }
      }
    }
  } finally {
    detach();
  }
  if (controller.aborted) {
    const reason: unknown = controller.reason;
    return { outcome: outcomeForAbort(reason), error: reason };
  }
  return failed ? { outcome: 'failed', error } : { outcome: 'completed', response };
}

/** Shared by every context without skipped events (frozen: handlers cannot change it). */
const NO_EVENTS: readonly RtEvent[] = Object.freeze([]);

/**
 * One handler run's context. `signal` is a prototype getter over the run's lazy cancellation (no
 * closure or accessor per delivery); `reply` stays an own property so it can be destructured.
 */
class RunContext implements HandlerContext {
  readonly event: RtEvent;
  readonly mode: Delivery['mode'];
  readonly lock: HandlerContext['lock'];
  readonly skipped: readonly RtEvent[];
  readonly batch: readonly RtEvent[];
  readonly adapter: Adapter;
  readonly reply: HandlerContext['reply'];
  readonly stream: HandlerContext['stream'];
  readonly #cancellation: Cancellation;

  constructor(delivery: Delivery, cancellation: Cancellation, extras: InvokeExtras) {
    const { event, adapter } = delivery;
    this.event = event;
    this.mode = delivery.mode;
    this.lock = extras.lock ? { key: extras.lock.key, fence: extras.lock.fence } : undefined;
    this.skipped = extras.skipped ?? NO_EVENTS;
    this.batch = extras.batch ?? [event];
    this.adapter = adapter;
    this.#cancellation = cancellation;
    this.reply = (message, options) =>
      adapter.reply(event, typeof message === 'string' ? { text: message } : message, {
        signal: options?.signal ?? cancellation.signal,
      });
    this.stream = contextStream(adapter, event, () => cancellation.signal);
  }

  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }
}
