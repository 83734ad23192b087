import { ConcurrentStrategy } from './concurrent.js';
import { DropStrategy } from './drop.js';
import type { ConcurrencyStrategy, StrategyHost } from './strategy.js';

/** The strategy named by `host.config.strategy`. */
export function createStrategy(host: StrategyHost): ConcurrencyStrategy {
  switch (host.config.strategy) {
    case 'drop':
      return new DropStrategy(host);
    case 'concurrent':
      return new ConcurrentStrategy(host);
    default:
      throw new RangeError(`strategy ${host.config.strategy} is not available yet`);
  }
}
