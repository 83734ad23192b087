import type { ActionObserver } from '../conversation/context-actions.js';
import type { ThreadHost } from '../conversation/thread-host.js';
import { DetachTimeoutError, ShutdownError } from '../errors.js';
import type { HandlerCaller } from '../observe/handler-instrumentation.js';
import type { FinishedDelivery, HandledResult } from '../outcomes/outcome.js';
import type { OutcomeLedger } from '../runtime/outcome-ledger.js';
import type { ConcurrencyStrategy } from '../strategies/strategy.js';
import type { CancelSource } from '../util/cancellation.js';
import { TimerWheel, WheelTimer } from '../util/timer-wheel.js';
import { AcceptedDelivery } from './accepted-delivery.js';
import type { Delivery } from './delivery.js';
import {
  type InvokeExtras,
  type RunHooks,
  type RunSink,
  startHandlers,
} from './invoke-handlers.js';
import { LiveDeliveries } from './live-deliveries.js';

/** How the runner instruments handler runs, fixed at construction. */
export interface RunnerInstrumentation {
  /** Record each run's start and duration for `dispatch_finished`: only when someone observes. */
  readonly timeHandlers: boolean;
  /** The observers' `aroundHandler`s, composed; `undefined`: handlers are called directly. */
  readonly callHandler: HandlerCaller | undefined;
  /** What `ctx.thread` works with (the runtime's State and observers). */
  readonly threads?: ThreadHost;
  /** Emits handlers' `conversation_action` observations; `undefined`: nobody observes. */
  readonly observeActions?: ActionObserver;
}

/** The extras of a plain run (frozen: shared by every delivery). */
const NO_EXTRAS: InvokeExtras = Object.freeze({});

const NO_INSTRUMENTATION: RunnerInstrumentation = Object.freeze({
  timeHandlers: false,
  callHandler: undefined,
});

/**
 * Takes accepted deliveries through the strategy to their terminal outcome: the deferred runner
 * (detach timeout, slot release after the strategy resolved) and the sync runner (the adapter's
 * signal). It knows how far each delivery got (its `DeliveryProgress` fields), which is what
 * shutdown acts on: `shutdownStarted` ends nothing itself (strategies end waiting work through
 * the shutdown signal) but records deliveries whose handler already finished; `abortRunning`
 * aborts the rest at the grace deadline; `abandonRunning` gives up on handlers still running at
 * the abandon deadline.
 */
export class DeliveryRunner {
  readonly #ledger: OutcomeLedger;
  readonly #detachTimeoutMs: number;
  readonly #shutdownSignal: CancelSource;
  readonly #instrumentation: RunnerInstrumentation;
  readonly #wheel: TimerWheel;
  readonly #hooks: RunHooks;
  /** The detach timeout's callback: one per runner, the delivery is the timer's target. */
  readonly #detachDue = (delivery: Delivery): void => {
    delivery.controller.abort(new DetachTimeoutError(this.#detachTimeoutMs));
  };
  #strategy: ConcurrencyStrategy | undefined;
  /** Deliveries inside the strategy (waiting, running, or releasing their lock). */
  readonly #live = new LiveDeliveries();
  #graceOver = false;
  #syncInFlight = 0;

  constructor(
    ledger: OutcomeLedger,
    detachTimeoutMs: number,
    shutdownSignal: CancelSource,
    instrumentation: RunnerInstrumentation = NO_INSTRUMENTATION,
    wheel: TimerWheel = new TimerWheel(),
  ) {
    this.#ledger = ledger;
    this.#detachTimeoutMs = detachTimeoutMs;
    this.#shutdownSignal = shutdownSignal;
    this.#instrumentation = instrumentation;
    this.#hooks = this.#makeHooks(instrumentation);
    this.#wheel = wheel;
  }

  /** The strategy to run deliveries through (set once, after the strategy got `invoke`). */
  use(strategy: ConcurrencyStrategy): void {
    this.#strategy = strategy;
  }

  /** Sync deliveries currently inside dispatch. */
  get syncInFlight(): number {
    return this.#syncInFlight;
  }

  /**
   * The strategies' way to run handlers. A delivery whose handler has not started when shutdown
   * began ends `shutdown` without running, and gets that outcome at once (docs/contract.md §7, step 3): its
   * lock, if any, is still owed a release, which shutdown waits for within its lock-I/O budget.
   * Once shutdown began, a delivery whose handler finishes gets its outcome at once, after its
   * lock's release became owed again (`HeldLock.takeBack`), so shutdown never resolves between
   * the two. Only a run in which a handler was called gets handler timing: when timed, every
   * member's progress gets the run's start and duration (`dispatch_finished` reports them).
   */
  invoke = (delivery: Delivery, extras: InvokeExtras = NO_EXTRAS): Promise<HandledResult> =>
    new Promise<HandledResult>((resolve, reject) => {
      this.start(delivery, extras, { handled: resolve, threw: reject });
    });

  /** `invoke` with the run's end handed to `sink` (no promise per run; see `startHandlers`). */
  start = (delivery: Delivery, extras: InvokeExtras, sink: RunSink): void => {
    if (this.#shutdownSignal.aborted) {
      const refused: HandledResult = { outcome: 'shutdown', error: this.#shutdownSignal.reason };
      for (const member of extras.members ?? [delivery]) this.#ledger.settle(member, refused);
      sink.handled(refused);
      return;
    }
    extras.lock?.lend();
    // No frame of its own: the run ends through the hooks (`ended`, then `finished`).
    startHandlers(delivery, extras, sink, this.#hooks);
  };

  /** A member's run ended with `result` (after `handlerMs`, when timed). */
  #handled(member: Delivery, handlerMs: number | undefined, result: HandledResult): void {
    member.handlerMs = handlerMs;
    member.handled = result;
    if (this.#shutdownSignal.aborted) this.#ledger.settle(member, result);
  }

  /** What every run gets: the instrumentation, and the runner's bookkeeping around the run. */
  #makeHooks(instrumentation: RunnerInstrumentation): RunHooks {
    return {
      callHandler: instrumentation.callHandler,
      threads: instrumentation.threads,
      observeActions: instrumentation.observeActions,
      /** Marks every member started (and, when timed, when). */
      started: (delivery, extras) => {
        const startedAt = this.#instrumentation.timeHandlers ? Date.now() : undefined;
        const { members } = extras;
        if (members === undefined) markStarted(delivery, startedAt);
        else for (const member of members) markStarted(member, startedAt);
      },
      /** The lease's release is owed again before anything about the outcome is recorded. */
      ended: (_delivery, extras) => {
        extras.lock?.takeBack();
      },
      finished: (delivery, extras, result) => {
        const startedAt = delivery.handlerStartedAt;
        const handlerMs = startedAt === undefined ? undefined : Math.max(0, Date.now() - startedAt);
        const { members } = extras;
        if (members === undefined) this.#handled(delivery, handlerMs, result);
        else for (const member of members) this.#handled(member, handlerMs, result);
        return result;
      },
    };
  }

  /**
   * Runs a deferred delivery: its `accepted` result, whose `settled` resolves (never rejects)
   * with its outcome once its slot is free. No async frame stays suspended for it: a strategy
   * with `start` hands the result to that record's sink (no promise of the strategy's own), any
   * other strategy's promise continues into it. Its detach timeout is a node on the runtime's
   * timer wheel (a shared callback, no closure, no `setTimeout` of its own).
   */
  runDeferred(delivery: Delivery): AcceptedDelivery {
    const strategy = this.#strategy;
    if (!strategy) throw new Error('DeliveryRunner used before its strategy was set');
    const timer = new WheelTimer(this.#detachDue, delivery);
    this.#wheel.schedule(timer, this.#detachTimeoutMs);
    this.#live.add(delivery);
    if (this.#graceOver) delivery.controller.abort(new ShutdownError());
    const accepted = new AcceptedDelivery(this.#finishDeferred, timer);
    try {
      if (strategy.start !== undefined) strategy.start(delivery, AcceptedDelivery.sinkOf(accepted));
      else AcceptedDelivery.follow(accepted, strategy.run(delivery));
    } catch (error) {
      AcceptedDelivery.end(accepted, { outcome: 'failed', error });
    }
    return accepted;
  }

  /**
   * The strategy resolved a deferred delivery: its slot frees and its outcome is recorded. One
   * function per runner (every `AcceptedDelivery` shares it).
   */
  readonly #finishDeferred = (
    timer: WheelTimer<Delivery>,
    result: HandledResult,
  ): FinishedDelivery => {
    const delivery = timer.target;
    this.#live.delete(delivery);
    this.#wheel.cancel(timer);
    delivery.slot?.release();
    return this.#ledger.settle(delivery, result);
  };

  /** Runs a sync delivery; its handlers' signal also aborts with `signal`. Never rejects. */
  async runSync(delivery: Delivery, signal: AbortSignal | undefined): Promise<HandledResult> {
    this.#syncInFlight += 1;
    const detach = signal ? delivery.controller.follow([signal]) : undefined;
    try {
      const { outcome, response, error } = this.#ledger.settle(
        delivery,
        await this.#runStrategy(delivery),
      );
      return {
        outcome,
        ...(response === undefined ? {} : { response }),
        ...(error === undefined ? {} : { error }),
      };
    } finally {
      detach?.();
      this.#syncInFlight -= 1;
    }
  }

  /** Shutdown began: deliveries whose handler already finished get their outcome now. */
  shutdownStarted(): void {
    this.#live.forEach((delivery) => {
      const { handled } = delivery;
      if (handled) this.#ledger.settle(delivery, handled);
    });
  }

  /** The grace deadline: every live delivery's signal aborts with `ShutdownError`. */
  abortRunning(): void {
    this.#graceOver = true;
    this.#live.forEach((delivery) => {
      delivery.controller.abort(new ShutdownError());
    });
  }

  /**
   * The abandon deadline: handlers still running are given up on with outcome `shutdown`. Their
   * slots stay held until their promises settle (docs/contract.md §4, invariant 1): `stats()` keeps showing
   * them. A delivery whose handler finished keeps its own outcome.
   */
  abandonRunning(): void {
    this.#live.forEach((delivery) => {
      const { finished, handled, handlerStarted } = delivery;
      if (finished) return;
      // A delivery whose handler never started is not abandoned: it only ends by shutdown.
      const error = handlerStarted
        ? new ShutdownError('handler ignored its abort signal and was abandoned')
        : new ShutdownError('runtime shutting down');
      this.#ledger.settle(delivery, handled ?? { outcome: 'shutdown', error });
    });
  }

  /** Runs the strategy with the delivery registered for the shutdown deadlines. Never rejects. */
  async #runStrategy(delivery: Delivery): Promise<HandledResult> {
    if (!this.#strategy) throw new Error('DeliveryRunner used before its strategy was set');
    this.#live.add(delivery);
    if (this.#graceOver) delivery.controller.abort(new ShutdownError());
    try {
      return await this.#strategy.run(delivery);
    } catch (error) {
      return { outcome: 'failed', error };
    } finally {
      this.#live.delete(delivery);
    }
  }
}

/** A member's handler started (at `startedAt`, when timed). */
function markStarted(member: Delivery, startedAt: number | undefined): void {
  member.handlerStarted = true;
  member.handlerStartedAt = startedAt;
}
