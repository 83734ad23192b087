import type { RuntimeHandle } from '@rt/core';
import { adapterNotice } from '@rt/core/adapter';

/**
 * Every `adapter_notice` name the Slack adapter emits:
 * - `busy_signal_failed`: a busy-signal follow-up (`response_url`, `views.open`/`push`) failed or
 *   ran past `busySignalTimeoutMs`;
 * - `request_failed`: an unexpected failure while answering a request (answered 500);
 * - `dispatch_error`: dispatch threw something that is not an rt refusal (a bug);
 * - `ack_deadline_passed`: the answer went out at `ackDeadlineMs` before the dispatch settled;
 * - `app_rate_limited`: Slack reported the app over its Events API rate limit;
 * - `dropped_without_signal`: an acknowledged delivery was dropped where no follow-up can reach
 *   the user;
 * - `signature_rejected`: a request failed signature verification (answered 401).
 */
export type SlackNoticeName =
  | 'busy_signal_failed'
  | 'request_failed'
  | 'dispatch_error'
  | 'ack_deadline_passed'
  | 'app_rate_limited'
  | 'dropped_without_signal'
  | 'signature_rejected';

/**
 * Emits a Slack `adapter_notice` through `runtime` (nothing before `attach`, when it is
 * `undefined`). Nothing it does (an observer that throws, ...) ever escapes.
 */
export function emitSlackNotice(
  runtime: RuntimeHandle | undefined,
  adapter: string,
  name: SlackNoticeName,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
): void {
  try {
    runtime?.observe(adapterNotice(adapter, name, detail, error));
  } catch {
    // Observation must never break a delivery.
  }
}
