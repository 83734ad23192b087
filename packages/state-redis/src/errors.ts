/**
 * Errors @rt/state-redis throws besides argument errors (`TypeError`, `RangeError`). Store
 * failures are `StateUnavailableError` from `@rt/core`, with the client's error as `cause`.
 */
import { StateUnavailableError } from '@rt/core';

/**
 * An operation was called after `close()`. It is a `StateUnavailableError` (code
 * `RT_STATE_UNAVAILABLE`), so a runtime treats it like any store failure: a prelude error the
 * platform retries, never a delivery acknowledged as handled.
 */
export class StateClosedError extends StateUnavailableError {
  constructor(operation: string) {
    super(`redis state is closed: ${operation} called after close()`);
  }
}
