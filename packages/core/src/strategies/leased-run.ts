import type { RunSink } from '../dispatch/invoke-handlers.js';
import type { HeldLock, ReleaseSink } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import type { ResultSink } from './strategy.js';

/**
 * A delivery's handler run under a lease, as the sink of that run: when the handlers end, the
 * lease is released first, then the result goes to `sink`; a hook that threw ends it `failed`
 * the same way, so it is never left unsettled. The lease is set before the run starts.
 * `queue`/`debounce` (`SurvivorRun`) and `drop` (`DropRun`) extend it.
 */
export class LeasedRun implements RunSink, ReleaseSink {
  lock: HeldLock | undefined;
  /** The handlers' result, kept while the lease is released. */
  #result: HandledResult | undefined;

  constructor(
    readonly sink: ResultSink,
    lock?: HeldLock,
  ) {
    this.lock = lock;
  }

  /** The handlers ended: the lease is released, then the result passed on. */
  handled(result: HandledResult): void {
    this.#result = result;
    this.lock!.releaseInto(this);
  }

  /** The lease was released: the result goes on. */
  released(): void {
    this.sink.handled(this.#result!);
  }

  /** A hook threw: the delivery ends `failed` the same way. */
  threw(error: unknown): void {
    this.handled({ outcome: 'failed', error });
  }
}
