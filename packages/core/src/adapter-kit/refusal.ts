import { hasErrorCode } from '../errors.js';

/**
 * How an adapter answers a dispatch that threw: `busy` (the bound or the tenant's ceiling is
 * full: try again soon), `unavailable` (shutdown, or the State failed: nothing was marked, a
 * retry may succeed elsewhere or later), `unexpected` (not an rt refusal: a bug, answered like
 * `unavailable` and observed by the adapter).
 */
export type RefusalKind = 'busy' | 'unavailable' | 'unexpected';

/**
 * Classifies what `RuntimeHandle.dispatch` rejected with: `AdmissionRejectedError` with reason
 * `capacity` or `tenant-capacity` is `busy`, with reason `shutdown` `unavailable`; `PreludeError`
 * is `unavailable`; anything else (including `InvalidEventError`) is `unexpected`. Matches by
 * error `code`, so duplicated package copies classify alike.
 */
export function classifyRefusal(error: unknown): RefusalKind {
  if (hasErrorCode(error, 'RT_ADMISSION_REJECTED')) {
    const reason = (error as { reason?: unknown }).reason;
    if (reason === 'capacity' || reason === 'tenant-capacity') return 'busy';
    if (reason === 'shutdown') return 'unavailable';
    return 'unexpected';
  }
  if (hasErrorCode(error, 'RT_PRELUDE')) return 'unavailable';
  return 'unexpected';
}
