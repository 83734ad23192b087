import type { Delivery } from '../dispatch/delivery.js';
import type { InvokeExtras } from '../dispatch/invoke-handlers.js';
import type { LockManager } from '../locks/lock-manager.js';
import type { Observation } from '../observe/observation.js';
import type { HandledResult } from '../outcomes/outcome.js';
import type { ResolvedConcurrency, StrategyName } from '../runtime/options.js';
import type { CancelSource } from '../util/cancellation.js';

/** What the runtime lends a strategy. */
export interface StrategyHost {
  readonly locks: LockManager;
  readonly config: ResolvedConcurrency;
  /**
   * Aborts (reason `ShutdownError`) the moment shutdown starts: parked work must leave at once. The
   * runtime's is a `Cancellation` (a listener per waiting delivery costs no `EventTarget` work).
   */
  readonly shutdownSignal: CancelSource;
  /** Runs the delivery's handlers; see `invokeHandlers`. */
  invoke(delivery: Delivery, extras?: InvokeExtras): Promise<HandledResult>;
  observe(observation: Observation): void;
}

/**
 * A concurrency strategy (docs/contract.md §5). One instance serves the whole runtime.
 */
export interface ConcurrencyStrategy {
  readonly name: StrategyName;
  /**
   * Takes one accepted delivery to its terminal result. Resolves only when nothing of the
   * delivery is retained any more (its handler settled, or it left its waiting place), so the
   * runtime may release its slot then. Never rejects: a State failure is a `failed` result.
   */
  run(delivery: Delivery): Promise<HandledResult>;
  /** Deliveries waiting (parked, in a line, in an open batch) right now. */
  readonly parked: number;
}
