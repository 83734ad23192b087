import type { State } from '@rt/core';

/** The State operations `stateWith` may replace. */
export type StateOverrides = Partial<
  Pick<State, 'markEvent' | 'acquireLock' | 'renewLock' | 'releaseLock'>
>;

/**
 * Wraps `inner` with some operations replaced: a `markEvent` that fails, an `acquireLock` held at
 * a `deferred` gate, a `releaseLock` that is slow... Each override may delegate to `inner` when it
 * is done. `overrides` is an object, or a function receiving `inner` (handy inline:
 * `stateWith(createMemoryState(), (inner) => ({ ... }))`). Operations not overridden, and
 * `close()`, go straight to `inner`. Optional capabilities of `inner` (`LockWakeups`...) are not
 * forwarded, so the runtime sees a State without them.
 */
export function stateWith(
  inner: State,
  overrides: StateOverrides | ((inner: State) => StateOverrides),
): State {
  const replaced = typeof overrides === 'function' ? overrides(inner) : overrides;
  return {
    markEvent: replaced.markEvent ?? ((key, ttlMs) => inner.markEvent(key, ttlMs)),
    acquireLock: replaced.acquireLock ?? ((key, ttlMs) => inner.acquireLock(key, ttlMs)),
    renewLock: replaced.renewLock ?? ((lease, ttlMs) => inner.renewLock(lease, ttlMs)),
    releaseLock: replaced.releaseLock ?? ((lease) => inner.releaseLock(lease)),
    close: () => inner.close(),
  };
}

/**
 * A State that cannot be reached: every operation rejects with an `Error` whose message is
 * `message` (default `state unreachable`), so every dispatch ends in a prelude error and nothing
 * is ever marked. `close()` resolves.
 */
export function unreachableState(message = 'state unreachable'): State {
  const fail = async (): Promise<never> => {
    throw new Error(message);
  };
  return {
    markEvent: fail,
    acquireLock: fail,
    renewLock: fail,
    releaseLock: fail,
    close: async () => {},
  };
}
