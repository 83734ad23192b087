import { BurstStrategy } from './burst.js';
import { ConcurrentStrategy } from './concurrent.js';
import { DebounceStrategy } from './debounce.js';
import { DropStrategy } from './drop.js';
import { QueueStrategy } from './queue.js';
import type { ConcurrencyStrategy, StrategyHost } from './strategy.js';

/** The strategy named by `host.config.strategy`. */
export function createStrategy(host: StrategyHost): ConcurrencyStrategy {
  switch (host.config.strategy) {
    case 'drop':
      return new DropStrategy(host);
    case 'queue':
      return new QueueStrategy(host);
    case 'debounce':
      return new DebounceStrategy(host);
    case 'concurrent':
      return new ConcurrentStrategy(host);
    case 'burst':
      return new BurstStrategy(host);
  }
}
