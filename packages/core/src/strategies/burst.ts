import type { Delivery } from '../dispatch/delivery.js';
import { type InvokeExtras, outcomeForAbort } from '../dispatch/invoke-handlers.js';
import { acquireWhenFreeInto } from '../locks/acquire-when-free.js';
import type { HeldLock } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import { TimerWheel } from '../util/timer-wheel.js';
import { Batch, Member } from './burst-records.js';
import type { ConcurrencyStrategy, ResultSink, StrategyHost } from './strategy.js';

/**
 * `burst`: deliveries for a scope arriving within `burstWindowMs` of a batch's first member form
 * one batch, handled once under the scope's Thread Lock with `ctx.batch` (every member, arrival
 * order; `ctx.event` is the first member). `maxBatch` closes a batch early and the next delivery
 * opens a new one: shaping moves boundaries but never drops an accepted member. Closed batches of
 * one scope run one after another in order. Every member holds its slot until its batch settled
 * and gets the batch's outcome. Before the handler starts, a member whose own life ends (detach
 * timeout, sync deadline) leaves alone with `timed-out` and frees its slot, and the rest of the
 * batch still runs; shutdown ends every batch not yet running, for all its members, with
 * `shutdown`. Once the handler runs, any member's signal ending ends the run for the batch.
 *
 * Per delivery: one member record; per batch: one record with its cancellation, which is also its
 * window's timer on the strategy's timer wheel (one armed `setTimeout` for every open batch, kept
 * alive: an open batch is accepted work) and the sink of its lock wait and handler run; no frame
 * stays suspended, no promise of the strategy's own.
 */
export class BurstStrategy implements ConcurrencyStrategy {
  readonly name = 'burst' as const;
  readonly #host: StrategyHost;
  /** The open batch per scope. */
  readonly #open = new Map<string, Batch>();
  /**
   * Per scope, its last closed batch that has not finished: the scope's closed batches form a
   * chain (`successor`) from the one running to this one.
   */
  readonly #last = new Map<string, Batch>();
  /** Where every open batch's window waits; not unref'd: an open batch is accepted work. */
  readonly #windows = new TimerWheel({ keepAlive: true });
  #parked = 0;

  constructor(host: StrategyHost) {
    this.#host = host;
  }

  /** Members of batches that have not started their handler. */
  get parked(): number {
    return this.#parked;
  }

  run(delivery: Delivery): Promise<HandledResult> {
    return new Promise<HandledResult>((handled) => this.start(delivery, { handled }));
  }

  start(delivery: Delivery, sink: ResultSink): void {
    const own = delivery.controller;
    const shutdown = this.#host.shutdownSignal;
    const ended = shutdown.aborted ? shutdown : own.aborted ? own : undefined;
    if (ended !== undefined) {
      const reason: unknown = ended.reason;
      sink.handled({ outcome: outcomeForAbort(reason), error: reason });
      return;
    }
    const key = delivery.scopeKey;
    let batch = this.#open.get(key);
    let member: Member;
    if (batch === undefined) {
      batch = this.#openBatch(key, delivery, sink);
      member = batch.joined[0]!;
    } else {
      member = new Member(batch, delivery, sink);
      batch.joined.push(member);
    }
    member.watch();
    this.#parked += 1;
    if (batch.joined.length >= this.#host.config.maxBatch) this.close(batch);
  }

  #openBatch(key: string, delivery: Delivery, sink: ResultSink): Batch {
    const batch = new Batch(this, key, delivery, sink);
    // A batch that has not started ends for every member when shutdown starts.
    batch.watchShutdown(this.#host.shutdownSignal);
    this.#windows.schedule(batch, this.#host.config.burstWindowMs);
    this.#open.set(key, batch);
    return batch;
  }

  /** @internal Shutdown started before `batch` ran: it ends for every member left. */
  shutDown(batch: Batch, reason: unknown): void {
    this.#stopAccepting(batch);
    this.#finish(batch, { outcome: outcomeForAbort(reason), error: reason });
    batch.controller.abort(reason); // stops a lock wait
  }

  /** @internal A member's life ended before its batch ran: it leaves alone; an emptied batch ends. */
  left(member: Member): void {
    const { batch } = member;
    const index = batch.joined.indexOf(member);
    if (batch.settled || index < 0) return;
    batch.joined.splice(index, 1);
    member.unwatch();
    this.#parked -= 1;
    const reason: unknown = member.delivery.controller.reason;
    member.sink.handled({ outcome: outcomeForAbort(reason), error: reason });
    if (batch.joined.length === 0) {
      this.#stopAccepting(batch);
      batch.settled = true;
      batch.unwatchShutdown();
      batch.controller.abort(); // stops a lock wait; nobody is left to settle
    }
  }

  /**
   * @internal Stops accepting members (its window ended, or `maxBatch` was reached) and runs the
   * batch after the scope's earlier batches.
   */
  close(batch: Batch): void {
    const { key } = batch;
    if (this.#open.get(key) !== batch) return;
    this.#stopAccepting(batch);
    const previous = this.#last.get(key);
    this.#last.set(key, batch);
    if (previous === undefined) this.#acquire(batch);
    else previous.successor = batch;
  }

  /** `batch` takes no more members: it is no longer its scope's open batch, its window is off. */
  #stopAccepting(batch: Batch): void {
    if (this.#open.get(batch.key) === batch) this.#open.delete(batch.key);
    this.#windows.cancel(batch);
  }

  /** The batch's turn came: it waits for its scope's lock (through `locked` or `gaveUp`). */
  #acquire(batch: Batch): void {
    const host = this.#host;
    acquireWhenFreeInto(
      host.locks,
      batch.key,
      {
        initialMs: host.config.lockPollInitialMs,
        maxMs: host.config.lockPollMaxMs,
        signal: batch.controller,
        observe: host.observe,
      },
      batch,
    );
  }

  /** @internal `batch` holds its scope's lock: its handler runs, unless it ended meanwhile. */
  locked(batch: Batch, lock: HeldLock): void {
    if (batch.settled) {
      lock.releaseInto(batch);
      return;
    }
    // The handler starts: members are no longer parked, and shutdown no longer ends them at once.
    const { joined } = batch;
    this.#parked -= joined.length;
    batch.settled = true;
    batch.unwatchShutdown();
    for (const member of joined) member.unwatch();
    batch.lock = lock;
    this.#host.start(joined[0]!.delivery, runExtras(batch), batch);
  }

  /**
   * @internal The batch's handler run ended: its lock is released before any member gets the
   * batch's result, whatever happened; then the scope's next batch may run.
   */
  handled(batch: Batch, result: HandledResult): void {
    batch.result = result;
    batch.lock!.releaseInto(batch);
  }

  /**
   * @internal `batch`'s lock was released: after a run every member gets its result; then the
   * scope's next batch may run.
   */
  released(batch: Batch): void {
    const { result } = batch;
    if (result !== undefined) for (const member of batch.joined) member.sink.handled(result);
    this.ran(batch);
  }

  /**
   * @internal The batch finished (ran, or ended while waiting): the scope's next closed batch
   * that has not ended meanwhile takes its turn; with none left, the scope has no closed batch.
   * Once shutdown started none does: every batch not yet running ends through its own watch.
   */
  ran(batch: Batch): void {
    const stopping = this.#host.shutdownSignal.aborted;
    let next = batch.successor;
    batch.successor = undefined;
    while (next !== undefined && (next.settled || stopping)) {
      const after = next.successor;
      next.successor = undefined;
      next = after;
    }
    if (next !== undefined) this.#acquire(next);
    else this.#last.delete(batch.key);
  }

  /** Ends a batch that never started: every member left gets `result`. */
  #finish(batch: Batch, result: HandledResult): void {
    if (batch.settled) return;
    batch.settled = true;
    this.#parked -= batch.joined.length;
    batch.unwatchShutdown();
    for (const member of batch.joined) {
      member.unwatch();
      member.sink.handled(result);
    }
  }
}

/**
 * What the batch's run gets: its lock and `ctx.batch`; with more than one member, the other
 * members' signals (any of them ending ends the run) and every member for the runner's outcomes.
 * A batch of one is a plain run of its delivery under the lock: the batch itself is its extras
 * (the context defaults `batch` and the runner `members` to that delivery).
 */
function runExtras(batch: Batch): InvokeExtras {
  const { joined } = batch;
  if (joined.length === 1) return batch;
  return {
    lock: batch.lock,
    batch: joined.map((member) => member.delivery.event),
    signals: joined.slice(1).map((member) => member.delivery.controller),
    members: joined.map((member) => member.delivery),
  };
}
