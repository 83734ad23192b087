import type { Delivery } from '../dispatch/delivery.js';
import { outcomeForAbort } from '../dispatch/invoke-handlers.js';
import { acquireWhenFree } from '../locks/acquire-when-free.js';
import type { HandledResult } from '../outcomes/outcome.js';
import { forwardAbort } from '../util/abort.js';
import type { ConcurrencyStrategy, StrategyHost } from './strategy.js';

/** A batch of one scope: open while it accepts members, then closed until its handler ran. */
interface Batch {
  readonly members: Delivery[];
  readonly settles: ((result: HandledResult) => void)[];
  /** Aborts when any member's life ends (detach timeout, grace deadline) or at shutdown. */
  readonly controller: AbortController;
  readonly detach: (() => void)[];
  timer: ReturnType<typeof setTimeout> | undefined;
  settled: boolean;
}

/**
 * `burst`: deliveries for a scope arriving within `burstWindowMs` of a batch's first member form
 * one batch, handled once under the scope's Thread Lock with `ctx.batch` (every member, arrival
 * order; `ctx.event` is the first member). `maxBatch` closes a batch early and the next delivery
 * opens a new one: shaping moves boundaries but never drops an accepted member. Closed batches of
 * one scope run one after another in order. Every member holds its slot until its batch settled
 * and gets the batch's outcome. A batch not yet running ends for all its members with `shutdown`
 * when shutdown starts, or `timed-out` when a member reaches its detach timeout.
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
      const key = delivery.scopeKey;
      let batch = this.#open.get(key);
      if (!batch) {
        batch = this.#openBatch(key);
        if (batch.settled) {
          settle(this.#abortResult(batch));
          return;
        }
      }
      batch.members.push(delivery);
      batch.settles.push(settle);
      this.#parked += 1;
      batch.detach.push(forwardAbort(batch.controller, [delivery.controller.signal]));
      if (batch.members.length >= this.#host.config.maxBatch) this.#close(key, batch);
    });
  }

  #openBatch(key: string): Batch {
    const batch: Batch = {
      members: [],
      settles: [],
      controller: new AbortController(),
      detach: [],
      timer: undefined,
      settled: false,
    };
    batch.detach.push(forwardAbort(batch.controller, [this.#host.shutdownSignal]));
    if (batch.controller.signal.aborted) {
      this.#finish(batch, this.#abortResult(batch));
      return batch;
    }
    // A batch that has not started ends for every member when its life ends.
    batch.controller.signal.addEventListener('abort', () => {
      if (this.#open.get(key) === batch) this.#open.delete(key);
      clearTimeout(batch.timer);
      this.#finish(batch, this.#abortResult(batch));
    });
    // Not unref'd: an open batch is accepted work and keeps the process alive.
    batch.timer = setTimeout(() => this.#close(key, batch), this.#host.config.burstWindowMs);
    this.#open.set(key, batch);
    return batch;
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
        signal: batch.controller.signal,
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
    this.#parked -= batch.members.length;
    batch.settled = true;
    const [first] = batch.members;
    let result: HandledResult;
    try {
      result = await this.#host.invoke(first!, {
        lock,
        batch: batch.members.map((member) => member.event),
        signals: batch.members.slice(1).map((member) => member.controller.signal),
      });
    } finally {
      await lock.release();
      for (const detach of batch.detach) detach();
    }
    for (const settle of batch.settles) settle(result);
  }

  #abortResult(batch: Batch): HandledResult {
    const reason: unknown = batch.controller.signal.reason;
    return { outcome: outcomeForAbort(reason), error: reason };
  }

  /** Ends a batch that never started: every member gets `result`. */
  #finish(batch: Batch, result: HandledResult): void {
    if (batch.settled) return;
    batch.settled = true;
    this.#parked -= batch.members.length;
    for (const detach of batch.detach) detach();
    for (const settle of batch.settles) settle(result);
  }
}
