import type { Delivery } from '../dispatch/delivery.js';
import { outcomeForAbort } from '../dispatch/invoke-handlers.js';
import { acquireWhenFree } from '../locks/acquire-when-free.js';
import type { HandledResult } from '../outcomes/outcome.js';
import { Cancellation } from '../util/cancellation.js';
import type { ConcurrencyStrategy, StrategyHost } from './strategy.js';

/** One member of a batch: its delivery, how to settle it, and how to stop watching its signal. */
interface Member {
  readonly delivery: Delivery;
  readonly settle: (result: HandledResult) => void;
  readonly unwatch: () => void;
}

/** A batch of one scope: open while it accepts members, then closed until its handler ran. */
interface Batch {
  /** Members in arrival order; a member whose life ends before the handler starts is removed. */
  readonly members: Map<Delivery, Member>;
  /** Aborts at shutdown, or when the last member left: the batch then never runs. */
  readonly controller: Cancellation;
  readonly unwatchShutdown: () => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when the handler starts or the batch ended without running. */
  settled: boolean;
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
 */
export class BurstStrategy implements ConcurrencyStrategy {
  readonly name = 'burst' as const;
  readonly #host: StrategyHost;
  /** The open batch per scope. */
  readonly #open = new Map<string, Batch>();
  /** Per scope, the promise of its last closed batch, so batches run in order. */
  readonly #chains = new Map<string, Promise<void>>();
  #parked = 0;

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
      const ended = [this.#host.shutdownSignal, own].find((signal) => signal.aborted);
      if (ended) {
        settle({ outcome: outcomeForAbort(ended.reason), error: ended.reason });
        return;
      }
      const key = delivery.scopeKey;
      const batch = this.#open.get(key) ?? this.#openBatch(key);
      const unwatch = own.onAbort(() => this.#leave(key, batch, delivery));
      batch.members.set(delivery, { delivery, settle, unwatch });
      this.#parked += 1;
      if (batch.members.size >= this.#host.config.maxBatch) this.#close(key, batch);
    });
  }

  #openBatch(key: string): Batch {
    const controller = new Cancellation();
    const batch: Batch = {
      members: new Map(),
      controller,
      unwatchShutdown: controller.follow([this.#host.shutdownSignal]),
      timer: undefined,
      settled: false,
    };
    // A batch that has not started ends for every member when shutdown starts.
    controller.onAbort(() => {
      if (this.#open.get(key) === batch) this.#open.delete(key);
      clearTimeout(batch.timer);
      this.#finish(batch, this.#abortResult(batch));
    });
    // Not unref'd: an open batch is accepted work and keeps the process alive.
    batch.timer = setTimeout(() => this.#close(key, batch), this.#host.config.burstWindowMs);
    this.#open.set(key, batch);
    return batch;
  }

  /** A member's life ended before its batch ran: it leaves alone; an emptied batch ends. */
  #leave(key: string, batch: Batch, delivery: Delivery): void {
    const member = batch.members.get(delivery);
    if (batch.settled || !member) return;
    batch.members.delete(delivery);
    this.#parked -= 1;
    const reason: unknown = delivery.controller.reason;
    member.settle({ outcome: outcomeForAbort(reason), error: reason });
    if (batch.members.size === 0) {
      if (this.#open.get(key) === batch) this.#open.delete(key);
      clearTimeout(batch.timer);
      batch.settled = true;
      batch.unwatchShutdown();
      batch.controller.abort(); // stops a lock wait; nobody is left to settle
    }
  }

  /** Stops accepting members and queues the batch behind the scope's earlier batches. */
  #close(key: string, batch: Batch): void {
    if (this.#open.get(key) !== batch) return;
    this.#open.delete(key);
    clearTimeout(batch.timer);
    const previous = this.#chains.get(key) ?? Promise.resolve();
    const chain = previous.then(() => this.#runBatch(key, batch));
    this.#chains.set(key, chain);
    void chain.then(() => {
      if (this.#chains.get(key) === chain) this.#chains.delete(key);
    });
  }

  async #runBatch(key: string, batch: Batch): Promise<void> {
    if (batch.settled) return;
    let lock: Awaited<ReturnType<typeof acquireWhenFree>>;
    try {
      lock = await acquireWhenFree(this.#host.locks, key, {
        initialMs: this.#host.config.lockPollInitialMs,
        maxMs: this.#host.config.lockPollMaxMs,
        signal: batch.controller,
        observe: this.#host.observe,
      });
    } catch {
      return; // the batch ended while waiting; its members already have their outcome
    }
    if (batch.settled) {
      await lock.release();
      return;
    }
    // The handler starts: members are no longer parked, and shutdown no longer ends them at once.
    const members = [...batch.members.values()];
    this.#parked -= members.length;
    batch.settled = true;
    batch.unwatchShutdown();
    for (const member of members) member.unwatch();
    const [first, ...rest] = members;
    let result: HandledResult;
    try {
      result = await this.#host.invoke(first!.delivery, {
        lock,
        batch: members.map((member) => member.delivery.event),
        signals: rest.map((member) => member.delivery.controller),
        members: members.map((member) => member.delivery),
      });
    } finally {
      await lock.release();
    }
    for (const member of members) member.settle(result);
  }

  #abortResult(batch: Batch): HandledResult {
    const reason: unknown = batch.controller.reason;
    return { outcome: outcomeForAbort(reason), error: reason };
  }

  /** Ends a batch that never started: every member left gets `result`. */
  #finish(batch: Batch, result: HandledResult): void {
    if (batch.settled) return;
    batch.settled = true;
    this.#parked -= batch.members.size;
    batch.unwatchShutdown();
    for (const member of batch.members.values()) {
      member.unwatch();
      member.settle(result);
    }
  }
}
