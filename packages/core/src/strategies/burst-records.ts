import type { Delivery } from '../dispatch/delivery.js';
import type { RunSink } from '../dispatch/invoke-handlers.js';
import type { LockSink } from '../locks/acquire-when-free.js';
import type { HeldLock } from '../locks/lock-manager.js';
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
    if (this.#watch !== undefined) Cancellation.unwatch(this.#watch);
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
 * runtime's shutdown, the sink of its lock acquisition and the sink of its handler run.
 */
export class Batch extends WheelTimer<Batch> implements AbortHandler, LockSink, RunSink {
  /** Members in arrival order; a member whose life ends before the handler starts is removed. */
  readonly members: Member[] = [];
  /** Ends the batch's lock wait: at shutdown, or when the last member left. */
  readonly controller = new Cancellation();
  /** Set when the handler starts or the batch ended without running. */
  settled = false;
  /** The scope's next closed batch: it runs once this one finished. */
  successor: Batch | undefined;
  /** The lease its handler runs under, once granted. */
  lock: HeldLock | undefined;
  #shutdown: Watch | undefined;

  constructor(
    readonly strategy: BurstStrategy,
    readonly key: string,
  ) {
    super(windowDue);
  }

  watchShutdown(shutdown: CancelSource): void {
    this.#shutdown = Cancellation.watch(shutdown, this);
  }

  unwatchShutdown(): void {
    if (this.#shutdown !== undefined) Cancellation.unwatch(this.#shutdown);
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

  /** A hook threw: every member ends `failed`, the same way. */
  threw(error: unknown): void {
    this.strategy.handled(this, { outcome: 'failed', error });
  }
}
