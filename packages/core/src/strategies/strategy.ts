import type { Delivery } from '../dispatch/delivery.js';
import type { InvokeExtras, RunSink } from '../dispatch/invoke-handlers.js';
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
  /** Runs them like `invoke`, handing the end to `sink` instead (see `startHandlers`). */
  start(delivery: Delivery, extras: InvokeExtras, sink: RunSink): void;
  observe(observation: Observation): void;
}

/** Where a strategy hands one delivery's terminal result: called once. It must not throw. */
export interface ResultSink {
  handled(result: HandledResult): void;
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
  /**
   * `run` with the result handed to `sink` instead of a promise (same contract; `sink` may be
   * called before `start` returns). Optional: the runner uses it when present, so a delivery
   * costs no promise of the strategy's own.
   */
  start?(delivery: Delivery, sink: ResultSink): void;
  /** Deliveries waiting (parked, in a line, in an open batch) right now. */
  readonly parked: number;
}
