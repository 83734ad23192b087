import type { Delivery } from '../dispatch/delivery.js';
import { type InvokeExtras, outcomeForAbort } from '../dispatch/invoke-handlers.js';
import { acquireWhenFree } from '../locks/acquire-when-free.js';
import type { HeldLock } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import {
  type AbortHandler,
  Cancellation,
  type CancelSource,
  type Watch,
} from '../util/cancellation.js';
import type { ConcurrencyStrategy, StrategyHost } from './strategy.js';

/**
 * One member of a batch: its delivery and how to settle it. It is its own abort handler on its
 * delivery's life (one list node, no closure).
 */
class Member implements AbortHandler {
  #watch: Watch | undefined;

  constructor(
    readonly batch: Batch,
    readonly delivery: Delivery,
    readonly settle: (result: HandledResult) => void,
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

/**
 * A batch of one scope: open while it accepts members, then closed until its handler ran. It is
 * its own abort handler on the runtime's shutdown.
 */
class Batch implements AbortHandler {
  /** Members in arrival order; a member whose life ends before the handler starts is removed. */
  readonly members: Member[] = [];
  /** Ends the batch's lock wait: at shutdown, or when the last member left. */
  readonly controller = new Cancellation();
  /** The window's timer while the batch is open. */
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when the handler starts or the batch ended without running. */
  settled = false;
  /** Its run, once closed: the scope's next batch runs after it. */
  done: Promise<void> | undefined;
  #shutdown: Watch | undefined;

  constructor(
    readonly strategy: BurstStrategy,
    readonly key: string,
  ) {}

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
}

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
 * Per delivery: one member record; per batch: one record with its cancellation and its window's
 * timer (a shared callback); no frame stays suspended while the handler runs.
 */
export class BurstStrategy implements ConcurrencyStrategy {
  readonly name = 'burst' as const;
  readonly #host: StrategyHost;
  /** The open batch per scope. */
  readonly #open = new Map<string, Batch>();
  /** Per scope, its last closed batch that has not finished, so batches run in order. */
  readonly #last = new Map<string, Batch>();
  #parked = 0;
  /** The window's timer callback, shared by every batch. */
  readonly #windowDue = (batch: Batch): void => this.#close(batch);

  constructor(host: StrategyHost) {
    this.#host = host;
  }

  /** Members of batches that have not started their handler. */
  get parked(): number {
    return this.#parked;
  }

  run(delivery: Delivery): Promise<HandledResult> {
    return new Promise<HandledResult>((settle) => {
      const own = delivery.controller;
      const shutdown = this.#host.shutdownSignal;
      const ended = shutdown.aborted ? shutdown : own.aborted ? own : undefined;
      if (ended !== undefined) {
        const reason: unknown = ended.reason;
        settle({ outcome: outcomeForAbort(reason), error: reason });
        return;
      }
      const key = delivery.scopeKey;
      const batch = this.#open.get(key) ?? this.#openBatch(key);
      const member = new Member(batch, delivery, settle);
      member.watch();
      batch.members.push(member);
      this.#parked += 1;
      if (batch.members.length >= this.#host.config.maxBatch) this.#close(batch);
    });
  }

  #openBatch(key: string): Batch {
    const batch = new Batch(this, key);
    // A batch that has not started ends for every member when shutdown starts.
    batch.watchShutdown(this.#host.shutdownSignal);
    // Not unref'd: an open batch is accepted work and keeps the process alive.
    batch.timer = setTimeout(this.#windowDue, this.#host.config.burstWindowMs, batch);
    this.#open.set(key, batch);
    return batch;
  }

  /** @internal Shutdown started before `batch` ran: it ends for every member left. */
  shutDown(batch: Batch, reason: unknown): void {
    if (this.#open.get(batch.key) === batch) this.#open.delete(batch.key);
    clearTimeout(batch.timer);
    this.#finish(batch, { outcome: outcomeForAbort(reason), error: reason });
    batch.controller.abort(reason); // stops a lock wait
  }

  /** @internal A member's life ended before its batch ran: it leaves alone; an emptied batch ends. */
  left(member: Member): void {
    const { batch } = member;
    const index = batch.members.indexOf(member);
    if (batch.settled || index < 0) return;
    batch.members.splice(index, 1);
    member.unwatch();
    this.#parked -= 1;
    const reason: unknown = member.delivery.controller.reason;
    member.settle({ outcome: outcomeForAbort(reason), error: reason });
    if (batch.members.length === 0) {
      if (this.#open.get(batch.key) === batch) this.#open.delete(batch.key);
      clearTimeout(batch.timer);
      batch.settled = true;
      batch.unwatchShutdown();
      batch.controller.abort(); // stops a lock wait; nobody is left to settle
    }
  }

  /** Stops accepting members and runs the batch after the scope's earlier batches. */
  #close(batch: Batch): void {
    const { key } = batch;
    if (this.#open.get(key) !== batch) return;
    this.#open.delete(key);
    clearTimeout(batch.timer);
    const previous = this.#last.get(key);
    this.#last.set(key, batch);
    batch.done =
      previous?.done === undefined
        ? this.#runBatch(batch)
        : previous.done.then(() => this.#runBatch(batch));
  }

  async #runBatch(batch: Batch): Promise<void> {
    if (batch.settled) return this.#ran(batch);
    let lock: HeldLock;
    try {
      lock = await acquireWhenFree(this.#host.locks, batch.key, {
        initialMs: this.#host.config.lockPollInitialMs,
        maxMs: this.#host.config.lockPollMaxMs,
        signal: batch.controller,
        observe: this.#host.observe,
      });
    } catch {
      return this.#ran(batch); // the batch ended while waiting; its members have their outcome
    }
    if (batch.settled) {
      await lock.release();
      return this.#ran(batch);
    }
    // The handler starts: members are no longer parked, and shutdown no longer ends them at once.
    const { members } = batch;
    this.#parked -= members.length;
    batch.settled = true;
    batch.unwatchShutdown();
    for (const member of members) member.unwatch();
    // Continued by callbacks, not awaited: no frame of this function stays suspended while the
    // handler runs. The lock is released before any member is settled, whatever happened.
    const held = lock;
    return this.#host.invoke(members[0]!.delivery, runExtras(held, members)).then(
      (result) =>
        held.release().then(() => {
          for (const member of members) member.settle(result);
          this.#ran(batch);
        }),
      (error: unknown) =>
        held.release().then(() => {
          this.#ran(batch);
          throw error;
        }),
    );
  }

  /** The batch finished: a later batch of its scope no longer waits for it. */
  #ran(batch: Batch): void {
    if (this.#last.get(batch.key) === batch) this.#last.delete(batch.key);
  }

  /** Ends a batch that never started: every member left gets `result`. */
  #finish(batch: Batch, result: HandledResult): void {
    if (batch.settled) return;
    batch.settled = true;
    this.#parked -= batch.members.length;
    batch.unwatchShutdown();
    for (const member of batch.members) {
      member.unwatch();
      member.settle(result);
    }
  }
}

/**
 * What the batch's run gets: its lock and `ctx.batch`; with more than one member, the other
 * members' signals (any of them ending ends the run) and every member for the runner's outcomes.
 * A batch of one is a plain run of its delivery (the runner defaults `members` to it).
 */
function runExtras(lock: HeldLock, members: readonly Member[]): InvokeExtras {
  if (members.length === 1) return { lock, batch: [members[0]!.delivery.event] };
  return {
    lock,
    batch: members.map((member) => member.delivery.event),
    signals: members.slice(1).map((member) => member.delivery.controller),
    members: members.map((member) => member.delivery),
  };
}
