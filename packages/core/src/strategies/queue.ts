import type { Delivery } from '../dispatch/delivery.js';
import type { HandledResult } from '../outcomes/outcome.js';
import { CoalescingEngine } from './coalescing.js';
import type { ConcurrencyStrategy, ResultSink, StrategyHost } from './strategy.js';

/**
 * `queue`: when the scope's lock is held, park as the scope's single waiter; a newer delivery
 * supersedes it. The survivor runs when the lock frees, with `ctx.skipped`. Slots cover running
 * tails plus at most one parked waiter per scope.
 */
export class QueueStrategy implements ConcurrencyStrategy {
  readonly name = 'queue' as const;
  readonly #engine: CoalescingEngine;

  constructor(host: StrategyHost) {
    this.#engine = new CoalescingEngine(host, 0);
  }

  get parked(): number {
    return this.#engine.parked;
  }

  run(delivery: Delivery): Promise<HandledResult> {
    return this.#engine.run(delivery);
  }

  start(delivery: Delivery, sink: ResultSink): void {
    this.#engine.start(delivery, sink);
  }
}
