import type { Delivery } from '../dispatch/delivery.js';
import { type InvokeExtras, outcomeForAbort } from '../dispatch/invoke-handlers.js';
import { eventRef } from '../event/event.js';
import { type LockSink, tryAcquireThroughOutageInto } from '../locks/acquire-when-free.js';
import type { HeldLock } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import { LeasedRun } from './leased-run.js';
import type { ConcurrencyStrategy, ResultSink, StrategyHost } from './strategy.js';

/**
 * `drop`: try the Thread Lock once; when another delivery holds it, the outcome is `dropped` and a
 * `lock_conflict` observation fires. Slots cover running tails only.
 *
 * The lock is taken once, the handlers run under it and it is released before the result is
 * passed on, whatever happened. A State failure while acquiring is retried with the configured
 * back-off until the State answers, the delivery's signal aborts (detach timeout: `timed-out`) or
 * shutdown starts (`shutdown`, at once, even with a State call in flight): an accepted delivery
 * never ends `failed` without its handler having run. Per delivery: one record (`DropRun`) that
 * is the sink of its lock acquisition and of its handler run; no async frame, no closure.
 */
export class DropStrategy implements ConcurrencyStrategy {
  readonly name = 'drop' as const;
  readonly parked = 0;
  readonly #host: StrategyHost;

  constructor(host: StrategyHost) {
    this.#host = host;
  }

  run(delivery: Delivery): Promise<HandledResult> {
    return new Promise<HandledResult>((handled) => this.start(delivery, { handled }));
  }

  start(delivery: Delivery, sink: ResultSink): void {
    const host = this.#host;
    // Until the handler starts, shutdown ends the delivery at once (docs/contract.md §7, step 3).
    tryAcquireThroughOutageInto(
      host.locks,
      delivery.scopeKey,
      {
        initialMs: host.config.lockPollInitialMs,
        maxMs: host.config.lockPollMaxMs,
        signal: delivery.controller,
        also: host.shutdownSignal,
        observe: host.observe,
      },
      new DropRun(host, delivery, sink),
    );
  }
}

/**
 * One delivery of `drop`, from its lock acquisition to its result; once locked, also its run's
 * extras (the lease), so the run needs no object of its own for them.
 */
class DropRun extends LeasedRun implements LockSink, InvokeExtras {
  constructor(
    readonly host: StrategyHost,
    readonly delivery: Delivery,
    sink: ResultSink,
  ) {
    super(sink);
  }

  /** The lock, or `null`: held elsewhere, so the delivery is dropped. */
  locked(lock: HeldLock | null): void {
    if (lock === null) {
      this.sink.handled(droppedOnConflict(this.host, this.delivery));
      return;
    }
    this.lock = lock;
    this.host.start(this.delivery, this, this);
  }

  /** The delivery's life or the runtime ended before the lock was taken. */
  gaveUp(reason: unknown): void {
    this.sink.handled({ outcome: outcomeForAbort(reason), error: reason });
  }
}

/** `drop`'s answer to a held lock: observed as `lock_conflict`, outcome `dropped`. */
function droppedOnConflict(host: StrategyHost, delivery: Delivery): HandledResult {
  host.observe({
    type: 'lock_conflict',
    at: Date.now(),
    event: eventRef(delivery.event),
    lockKey: delivery.scopeKey,
  });
  return { outcome: 'dropped' };
}
