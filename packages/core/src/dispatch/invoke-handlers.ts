import type { ActionObserver } from '../conversation/context-actions.js';
import type { ThreadHost } from '../conversation/thread-host.js';
import { hasErrorCode } from '../errors.js';
import type { RtEvent } from '../event/event.js';
import type { HeldLock } from '../locks/lock-manager.js';
import type { HandlerCaller } from '../observe/handler-instrumentation.js';
import type { HandledResult, Outcome } from '../outcomes/outcome.js';
import type { CancelSource } from '../util/cancellation.js';
import type { Delivery } from './delivery.js';
import { HandlerRun } from './handler-run.js';

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
 * What the runner lends every run, fixed per runtime: one object, no closure per delivery.
 */
export interface RunHooks {
  /** The observers' `aroundHandler`s, composed; `undefined`: handlers are called directly. */
  readonly callHandler: HandlerCaller | undefined;
  /** What `ctx.thread` works with. */
  readonly threads: ThreadHost | undefined;
  /** Emits handlers' `conversation_action` observations; `undefined`: nobody observes. */
  readonly observeActions: ActionObserver | undefined;
  /** Called once, right before the first handler is called. */
  started(delivery: Delivery, extras: InvokeExtras): void;
  /** The run is over (on every path): called before `finished`, and even when the run threw. */
  ended(delivery: Delivery, extras: InvokeExtras): void;
  /** The run's result, once `ended` ran; what it returns is what the run resolves with. */
  finished(delivery: Delivery, extras: InvokeExtras, result: HandledResult): HandledResult;
}

/** The extras of a run a strategy adds nothing to (frozen: shared by every such run). */
const NO_EXTRAS: InvokeExtras = Object.freeze({});

/** Hooks of a run nobody instruments or keeps books on (handlers called directly). */
const PLAIN_RUN: RunHooks = Object.freeze({
  callHandler: undefined,
  threads: undefined,
  observeActions: undefined,
  started: () => {},
  ended: () => {},
  finished: (_delivery: Delivery, _extras: InvokeExtras, result: HandledResult) => result,
});

/**
 * Where a run started by `startHandlers` ends: exactly one of the two is called, once, possibly
 * before `startHandlers` returns (every handler synchronous). Neither may throw.
 */
export interface RunSink {
  /** The run's result, once the hooks' `ended` and `finished` ran (`finished`'s return value). */
  handled(result: HandledResult): void;
  /** A hook threw: the run was closed (cancellations detached, `ended` called) first. */
  threw(error: unknown): void;
}

/**
 * Runs `delivery`'s handlers one after another, in registration order, under one context.
 * A handler that throws makes the result `failed` (first error kept) but the others still run;
 * once the signal aborts no further handler starts, and the result is the abort's outcome
 * (`timed-out`, `preempted`, `shutdown`) however the running handler ended. Resolves only after
 * the last started handler's promise settled; rejects only when a hook throws. A handler that
 * returns no promise (a thenable) is not awaited: a synchronous handler costs no promise hop.
 * With `hooks.callHandler` (the observers' `aroundHandler`s), each handler is called through it.
 * The run's cancellation is lazy: `ctx.signal` becomes a real `AbortSignal` only when a handler
 * (or `ctx.reply`) reads it. `hooks.started` is called once, right before the first handler is
 * called; never when the signal had aborted before any handler started (then no handler ran).
 */
export function invokeHandlers(
  delivery: Delivery,
  extras: InvokeExtras = NO_EXTRAS,
  hooks: RunHooks = PLAIN_RUN,
): Promise<HandledResult> {
  return new Promise<HandledResult>((resolve, reject) => {
    startHandlers(delivery, extras, { handled: resolve, threw: reject }, hooks);
  });
}

/**
 * `invokeHandlers` with its end handed to `sink` instead of a promise: the run is one record, the
 * handlers' context itself, continued by callbacks when a handler's promise settles: no
 * suspended async frame holds a running delivery, and no promise but the handler's own.
 */
export function startHandlers(
  delivery: Delivery,
  extras: InvokeExtras,
  sink: RunSink,
  hooks: RunHooks = PLAIN_RUN,
): void {
  HandlerRun.run(delivery, extras, hooks, sink);
}
