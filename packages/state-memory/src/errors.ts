/**
 * Errors @rt/state-memory throws besides argument errors (`TypeError`, `RangeError`).
 */
import { StateUnavailableError } from '@rt/core';

/**
 * An operation was called after `close()`. It is a `StateUnavailableError` (code
 * `RT_STATE_UNAVAILABLE`), so a runtime treats it like any store failure: a prelude error the
 * platform retries, never a delivery acknowledged as handled.
 */
export class StateClosedError extends StateUnavailableError {
  constructor(operation: string) {
    super(`memory state is closed: ${operation} called after close()`);
  }
}
