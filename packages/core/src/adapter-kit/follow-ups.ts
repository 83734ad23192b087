import { timeoutSignal } from '../util/signals.js';
import { PendingSet } from './pending-set.js';

/** Options of a `FollowUpRunner`, generic over the transport's follow-up type `F`. */
export interface FollowUpRunnerOptions<F> {
  /** Sends one follow-up (the platform call); must honour `signal`, aborted at the budget. */
  send(followUp: F, signal: AbortSignal): Promise<void>;
  /** Time budget of each follow-up, counted from `start`. A positive number. */
  readonly budgetMs: number;
  /** Reports a failed (or timed-out) follow-up; what it throws is contained. */
  onFailure(followUp: F, error: unknown): void;
  /** The budget's abort reason message. Default `follow-up ran past its budget of <n> ms`. */
  readonly budgetMessage?: string;
}

/**
 * Runs best-effort follow-ups (busy signals sent after the acknowledgement), each bounded by
 * `budgetMs`: at the budget its signal aborts, and a `send` that ignores it is given up on (reported
 * with the budget's `TimeoutError`) and no longer waited for by `drain`. Failures go to `onFailure`, never thrown.
 */
export class FollowUpRunner<F> {
  readonly #options: FollowUpRunnerOptions<F>;
  readonly #pending = new PendingSet();

  /** Throws `RangeError` naming `budgetMs` unless it is a positive number. */
  constructor(options: FollowUpRunnerOptions<F>) {
    if (!Number.isFinite(options.budgetMs) || options.budgetMs <= 0) {
      throw new RangeError('budgetMs must be a positive number');
    }
    this.#options = options;
  }

  /** Follow-ups started and not yet settled. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Starts `followUp` without waiting for it. It is counted as pending at once, but `send` is
   * called on a later turn of the event loop, so nothing it does (not even a synchronous block)
   * can delay the acknowledgement being written.
   */
  start(followUp: F): void {
    const { budgetMs } = this.#options;
    const budget = timeoutSignal(
      budgetMs,
      this.#options.budgetMessage ?? `follow-up ran past its budget of ${budgetMs} ms`,
    );
    const sent = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      budget.signal.throwIfAborted();
      return this.#options.send(followUp, budget.signal);
    });
    const bounded = new Promise<void>((resolve, reject) => {
      // A `send` that honours the signal settles with its own error first; one that ignores it is
      // given up on a turn later, with the budget's reason.
      const onAbort = () => setImmediate(() => reject(budget.signal.reason));
      budget.signal.addEventListener('abort', onAbort, { once: true });
      sent.then(resolve, reject).finally(() => budget.signal.removeEventListener('abort', onAbort));
    });
    const task = bounded
      .then(undefined, (error: unknown) => {
        try {
          this.#options.onFailure(followUp, error);
        } catch {
          // A failing reporter must not turn into an unhandled rejection.
        }
      })
      .finally(() => budget.clear());
    void this.#pending.track(task);
  }

  /**
   * Resolves once every follow-up started before the call has settled (each is bounded by
   * `budgetMs`); follow-ups started while it waits are not waited for, so it converges under
   * continuous traffic. Rejects with `signal.reason` when `signal` aborts first.
   */
  drain(signal?: AbortSignal): Promise<void> {
    return this.#pending.settledNow(signal);
  }
}
