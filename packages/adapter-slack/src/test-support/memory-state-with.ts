import type { State } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';

/** The State operations a test may replace. */
export type StateOverrides = Partial<
  Pick<State, 'markEvent' | 'acquireLock' | 'renewLock' | 'releaseLock'>
>;

/**
 * A memory State with some operations replaced (a mark that fails, an acquire held at a gate...).
 * Each override receives the real memory State as `inner`, to delegate to when it is done.
 */
export function memoryStateWith(overrides: (inner: State) => StateOverrides): State {
  const inner = createMemoryState();
  const replaced = overrides(inner);
  return {
    markEvent: replaced.markEvent ?? ((key, ttlMs) => inner.markEvent(key, ttlMs)),
    acquireLock: replaced.acquireLock ?? ((key, ttlMs) => inner.acquireLock(key, ttlMs)),
    renewLock: replaced.renewLock ?? ((lease, ttlMs) => inner.renewLock(lease, ttlMs)),
    releaseLock: replaced.releaseLock ?? ((lease) => inner.releaseLock(lease)),
    close: () => inner.close(),
  };
}

/** A State that cannot mark anything: every dispatch ends in a prelude error. */
export function unreachableState(): State {
  return memoryStateWith(() => ({
    markEvent: async () => {
      throw new Error('state unreachable');
    },
  }));
}
