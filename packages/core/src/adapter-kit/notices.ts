import type { RuntimeHandle } from '../adapter/adapter.js';
import type { Observation } from '../observe/observation.js';

/**
 * The `adapter_notice` names every adapter built on the kit emits, with one meaning each:
 * - `signature_rejected`: a request failed verification and was answered 401 (`detail.reason`);
 * - `request_failed`: an unexpected failure while answering a request, answered 500 (a bug;
 *   `error`);
 * - `dispatch_error`: dispatch threw something that is no rt refusal (a bug; answered with the
 *   unavailable refusal);
 * - `ack_deadline_passed`: the answer was not ready by `ackDeadlineMs` after receipt; the
 *   unavailable refusal went out (`detail.deadlineMs`);
 * - `busy_signal_failed`: a busy-signal follow-up failed or ran past `busySignalTimeoutMs`
 *   (`detail.via`).
 * An adapter's own union adds its platform's names: `type XNoticeName = KitNoticeName | 'x_...'`.
 */
export type KitNoticeName =
  | 'signature_rejected'
  | 'request_failed'
  | 'dispatch_error'
  | 'ack_deadline_passed'
  | 'busy_signal_failed';

/**
 * Builds an `adapter_notice` observation from adapter `adapter`, named `name`. Each adapter
 * declares its names as a union (`KitNoticeName | ...`) and passes it as `N`, so names are checked,
 * never built from strings. `detail` and `error` are included only when given; `at` is the wall
 * clock, like every other observation's.
 */
export function adapterNotice<N extends string>(
  adapter: string,
  name: N,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
): Observation & { readonly type: 'adapter_notice'; readonly name: N } {
  return {
    type: 'adapter_notice',
    at: Date.now(),
    adapter,
    name,
    ...(detail !== undefined ? { detail } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

/** Emits one `adapter_notice`; never throws. */
export type NoticeEmitter<N extends string> = (
  name: N,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
) => void;

/**
 * The notice emitter of adapter `adapter`: each call observes an `adapter_notice` through the
 * runtime `runtime()` returns (nothing before `attach`, when it returns `undefined`). Nothing it
 * does (an observer that throws, ...) ever escapes: a notice never breaks a delivery.
 */
export function noticeEmitter<N extends string>(
  adapter: string,
  runtime: () => RuntimeHandle | undefined,
): NoticeEmitter<N> {
  return (name, detail, error) => {
    try {
      runtime()?.observe(adapterNotice(adapter, name, detail, error));
    } catch {
      // Observation must never break a delivery.
    }
  };
}
