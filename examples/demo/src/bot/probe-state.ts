import type { State } from '@rt/core';
import { hasLockWakeups } from '@rt/core/state';

/**
 * Wraps a State so `onMark` runs synchronously at every `markEvent`. The runtime calls
 * `markEvent` in the same synchronous step as it reserves an admission slot (docs/contract.md §3: admission,
 * then the dedupe mark), so reading `detachedInFlight` there sees every admission's count. The
 * optional `LockWakeups` capability is kept when the wrapped State has it.
 */
export function probeState(state: State, onMark: () => void): State {
  const probed: State = {
    markEvent: (key, ttlMs) => {
      onMark();
      return state.markEvent(key, ttlMs);
    },
    acquireLock: (key, ttlMs) => state.acquireLock(key, ttlMs),
    renewLock: (lease, ttlMs) => state.renewLock(lease, ttlMs),
    releaseLock: (lease) => state.releaseLock(lease),
    close: () => state.close(),
  };
  if (!hasLockWakeups(state)) return probed;
  return Object.assign(probed, {
    waitForRelease: (key: string, timeoutMs: number, signal: AbortSignal) =>
      state.waitForRelease(key, timeoutMs, signal),
  });
}
