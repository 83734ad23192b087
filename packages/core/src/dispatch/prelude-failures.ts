/**
 * How the prelude records a delivery it does not accept: a refusal (`admission_rejected`, outcome
 * `admission-rejected`, rejected without a `throw`) and a prelude failure (`prelude_error`,
 * outcome `prelude-error`). docs/contract.md §3, §4 and §6.
 */
import { AdmissionRejectedError, type AdmissionRejectionReason } from '../errors.js';
import { eventRef, type RtEvent } from '../event/event.js';
import type { DispatchMode } from '../observe/observation.js';
import type { PreludeHost } from './prelude.js';

/**
 * Records a refusal (the `admission_rejected` observation, built only when someone observes, and
 * the outcome `admission-rejected`) and returns it, for the caller to reject with.
 */
export function refused(
  host: PreludeHost,
  event: RtEvent,
  mode: DispatchMode,
  reason: AdmissionRejectionReason,
): { readonly status: 'refused'; readonly error: AdmissionRejectedError } {
  if (host.observing('admission_rejected')) {
    host.emit({
      type: 'admission_rejected',
      at: Date.now(),
      receivedAt: event.receivedAt,
      event: eventRef(event),
      adapter: event.adapter,
      tenant: event.tenant,
      reason,
      mode,
    });
  }
  host.ledger.note(event, mode, ADMISSION_REJECTED, event.receivedAt, false);
  return {
    status: 'refused',
    error: new AdmissionRejectedError(reason, event.adapter, event.tenant),
  };
}

const ADMISSION_REJECTED = Object.freeze({ outcome: 'admission-rejected' as const });

/** Settled already: `rejectSoon` schedules its rejection on it. */
const RESOLVED = Promise.resolve();

/**
 * A promise rejected with `error` one microtask from now (on the promise job queue, which fake
 * timers never hold back), without a `throw`. `dispatch`'s callers await it at once, so it
 * rejects with its handler attached: no `throw` (V8 builds a message for each one) and no entry
 * in Node's unhandled-rejection tracking, which an already rejected promise, or an async function
 * throwing before its first `await`, costs per refused delivery.
 */
export function rejectSoon(error: unknown): Promise<never> {
  return new Promise<never>((_, reject) => {
    RESOLVED.then(() => reject(error));
  });
}

/**
 * Observes a prelude failure (`prelude_error`) and records its outcome (`prelude-error`);
 * `wasOpen` says whether the ledger had already opened the delivery.
 */
export function recordPreludeError(
  host: PreludeHost,
  event: RtEvent,
  mode: DispatchMode,
  error: unknown,
  wasOpen: boolean,
): void {
  host.emit({
    type: 'prelude_error',
    at: Date.now(),
    receivedAt: event.receivedAt,
    event: eventRef(event),
    error,
  });
  host.ledger.note(event, mode, { outcome: 'prelude-error', error }, event.receivedAt, wasOpen);
}
