import type { Delivery } from '../dispatch/delivery.js';
import type { InvokeExtras, RunSink } from '../dispatch/invoke-handlers.js';
import type { LockSink } from '../locks/acquire-when-free.js';
import type { HeldLock, ReleaseSink } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import {
  type AbortHandler,
  Cancellation,
  type CancelSource,
  type Watch,
} from '../util/cancellation.js';
import { WheelTimer } from '../util/timer-wheel.js';
import type { BurstStrategy } from './burst.js';
import type { ResultSink } from './strategy.js';

/**
 * One member of a batch: its delivery and where its result goes. It is its own abort handler on
 * its delivery's life (one list node, no closure).
 */
export class Member implements AbortHandler {
  #watch: Watch | undefined;

  constructor(
    readonly batch: Batch,
    readonly delivery: Delivery,
    readonly sink: ResultSink,
  ) {}

  /** Starts watching its delivery's life (not aborted yet: the caller checked). */
  watch(): void {
    this.#watch = Cancellation.watch(this.delivery.controller, this);
  }

  unwatch(): void {
    if (this.#watch !== undefined) Cancellation.unwatch(this.#watch, this);
    this.#watch = undefined;
  }

  /** Its delivery's life ended before the batch ran. */
  handleAbort(): void {
    this.batch.strategy.left(this);
  }
}

/** A batch's window ended: it closes (one function for every batch, the batch is the target). */
function windowDue(batch: Batch): void {
  batch.strategy.close(batch);
}

/**
 * A batch of one scope: open while it accepts members, then closed until its handler ran. One
 * record that is its window's timer (on the strategy's wheel), its own abort handler on the
 * runtime's shutdown, the sink of its lock acquisition and of its handler run, and (a batch of
 * one) that run's extras.
 */
export class Batch
  extends WheelTimer<Batch>
  implements AbortHandler, LockSink, RunSink, InvokeExtras, ReleaseSink
{
  /**
   * Members in arrival order (the first one opened the batch: a one-element array, no spare
   * capacity); a member whose life ends before the handler starts is removed.
   */
  readonly joined: Member[];
  /** Ends the batch's lock wait: at shutdown, or when the last member left. */
  readonly controller = new Cancellation();
  /** Set when the handler starts or the batch ended without running. */
  settled = false;
  /** The scope's next closed batch: it runs once this one finished. */
  successor: Batch | undefined;
  /**
   * The lease its handler runs under, once granted. A batch of one is its run's extras (the
   * lease is all it adds); a larger batch's run gets extras of its own (`ctx.batch`, signals).
   */
  lock: HeldLock | undefined;
  /** Its handler run's result, kept while the lease is released. */
  result: HandledResult | undefined;
  #shutdown: Watch | undefined;

  /** A batch opened by its first member (`delivery`, whose result goes to `sink`). */
  constructor(
    readonly strategy: BurstStrategy,
    readonly key: string,
    delivery: Delivery,
    sink: ResultSink,
  ) {
    super(windowDue);
    this.joined = [new Member(this, delivery, sink)];
  }

  watchShutdown(shutdown: CancelSource): void {
    this.#shutdown = Cancellation.watch(shutdown, this);
  }

  unwatchShutdown(): void {
    if (this.#shutdown !== undefined) Cancellation.unwatch(this.#shutdown, this);
    this.#shutdown = undefined;
  }

  /** Shutdown started before the batch ran. */
  handleAbort(reason: unknown): void {
    this.strategy.shutDown(this, reason);
  }

  /** Its scope's lock was granted (never `null`: the acquisition waits until the lock frees). */
  locked(lock: HeldLock | null): void {
    this.strategy.locked(this, lock!);
  }

  /** The batch ended while waiting for the lock: its members already have their outcome. */
  gaveUp(): void {
    this.strategy.ran(this);
  }

  /** Its handler run ended. */
  handled(result: HandledResult): void {
    this.strategy.handled(this, result);
  }

  /** Its lease was released (after its run, or after it ended while it was being granted). */
  released(): void {
    this.strategy.released(this);
  }

  /** A hook threw: every member ends `failed`, the same way. */
  threw(error: unknown): void {
    this.strategy.handled(this, { outcome: 'failed', error });
  }
}
