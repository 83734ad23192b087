import type { Delivery } from '../dispatch/delivery.js';
import type { HandledResult } from '../outcomes/outcome.js';
import { CoalescingEngine } from './coalescing.js';
import type { ConcurrencyStrategy, ResultSink, StrategyHost } from './strategy.js';

/**
 * `debounce`: every delivery parks for `debounceMs`; a newer one restarts the window and
 * supersedes. The survivor then takes the lock as in `queue` and runs with `ctx.skipped`. Slots
 * cover at most one parked waiter per scope plus running tails.
 */
export class DebounceStrategy implements ConcurrencyStrategy {
  readonly name = 'debounce' as const;
  readonly #engine: CoalescingEngine;

  constructor(host: StrategyHost) {
    this.#engine = new CoalescingEngine(host, host.config.debounceMs);
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
