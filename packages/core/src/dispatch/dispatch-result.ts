import type { FinishedDelivery, Outcome } from '../outcomes/outcome.js';

/** Per-call options of `dispatch`. */
export interface DispatchOptions {
  /**
   * Sync dispatch only: aborts the handler's signal with this signal's reason (e.g. an adapter's
   * acknowledgement deadline). It does not cancel a deferred tail, whose life is bounded by
   * `detachTimeoutMs`.
   */
  readonly signal?: AbortSignal;
}

/**
 * What `dispatch` resolves with. Rejections are `AdmissionRejectedError` (refused before
 * acceptance), `PreludeError` (the State failed or the lock scope function threw; nothing marked)
 * and `InvalidEventError` (the event breaks the event contract).
 */
export type DispatchResult =
  /** No handler matched. Acknowledge; nothing was admitted or marked. */
  | { readonly status: 'unrouted' }
  /** The event was already marked: a redelivery. Acknowledge as handled before. */
  | { readonly status: 'duplicate' }
  /**
   * Deferred: accepted and marked; acknowledge now. `settled` resolves (never rejects) when the
   * delivery reaches its terminal outcome and its slot is released.
   */
  | { readonly status: 'accepted'; readonly settled: Promise<FinishedDelivery> }
  /** Sync: the strategy and handlers ran. `response` is the first defined handler return value. */
  | {
      readonly status: 'completed';
      readonly outcome: Outcome;
      readonly response?: unknown;
      readonly error?: unknown;
    };
