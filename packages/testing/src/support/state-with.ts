import type { State } from '@rt/core';
import {
  type FencedThreadState,
  hasFencedThreadState,
  hasLockWakeups,
  hasMultiKeyMark,
  hasSubscriptions,
  type LockWakeups,
  type MultiKeyMark,
  type Subscriptions,
} from '@rt/core/state';

/** The State operations `stateWith` may replace (`markEvents`: see `stateWith`). */
export type StateOverrides = Partial<
  Pick<State, 'markEvent' | 'acquireLock' | 'renewLock' | 'releaseLock'> & MultiKeyMark
>;

/** The name of an optional State capability, as `StateWithOptions.without` takes it. */
export type StateCapability =
  | 'LockWakeups'
  | 'MultiKeyMark'
  | 'Subscriptions'
  | 'FencedThreadState';

const CAPABILITIES: readonly StateCapability[] = Object.freeze([
  'LockWakeups',
  'MultiKeyMark',
  'Subscriptions',
  'FencedThreadState',
]);

/** Options of `stateWith`. */
export interface StateWithOptions {
  /**
   * Capabilities of the inner State the wrapper does not offer, to test the runtime on a State
   * without them (default: none, every capability of the inner State stays available).
   */
  readonly without?: readonly StateCapability[];
}

/** The optional capabilities `stateWith` forwards from the inner State. */
type Capabilities = Partial<LockWakeups & MultiKeyMark & Subscriptions & FencedThreadState>;

/**
 * Wraps `inner` with some operations replaced: a `markEvent` that fails, an `acquireLock` held at
 * a `deferred` gate, a `releaseLock` that is slow... Each override may delegate to `inner` when it
 * is done. `overrides` is an object, or a function receiving `inner` (handy inline:
 * `stateWith(createMemoryState(), (inner) => ({ ... }))`). Operations not overridden, and
 * `close()`, go straight to `inner`.
 *
 * Every optional capability of `inner` (`LockWakeups`, `MultiKeyMark`, `Subscriptions`,
 * `FencedThreadState`) stays available, so the runtime sees the same State with a fault in it.
 * One exception keeps a fault from being bypassed: when `markEvent` is overridden and
 * `markEvents` is not, `markEvents` is not forwarded, so every dedupe mark (an event with
 * aliases included, docs/contract.md §3) goes through the override. Override `markEvents` to
 * fault the multi-key mark itself; that adds the capability even when `inner` lacks it.
 * `options.without` hides capabilities (an unknown name is a `TypeError` naming the option).
 */
export function stateWith(
  inner: State,
  overrides: StateOverrides | ((inner: State) => StateOverrides),
  options: StateWithOptions = {},
): State {
  const without = new Set(options.without ?? []);
  for (const name of without) {
    if (!CAPABILITIES.includes(name)) {
      throw new TypeError(`stateWith: options.without has an unknown capability ${String(name)}`);
    }
  }
  const replaced = typeof overrides === 'function' ? overrides(inner) : overrides;
  return {
    ...forwardedCapabilities(inner, replaced, without),
    markEvent: replaced.markEvent ?? ((key, ttlMs) => inner.markEvent(key, ttlMs)),
    acquireLock: replaced.acquireLock ?? ((key, ttlMs) => inner.acquireLock(key, ttlMs)),
    renewLock: replaced.renewLock ?? ((lease, ttlMs) => inner.renewLock(lease, ttlMs)),
    releaseLock: replaced.releaseLock ?? ((lease) => inner.releaseLock(lease)),
    close: () => inner.close(),
  } satisfies State & Capabilities;
}

/** The capability operations of `inner` the wrapper offers, delegating to `inner`. */
function forwardedCapabilities(
  inner: State,
  replaced: StateOverrides,
  without: ReadonlySet<StateCapability>,
): Capabilities {
  const out: Capabilities = {};
  if (hasLockWakeups(inner) && !without.has('LockWakeups')) {
    out.waitForRelease = (key, timeoutMs, signal) => inner.waitForRelease(key, timeoutMs, signal);
  }
  if (!without.has('MultiKeyMark')) {
    if (replaced.markEvents) out.markEvents = replaced.markEvents;
    else if (hasMultiKeyMark(inner) && replaced.markEvent === undefined) {
      out.markEvents = (keys, ttlMs) => inner.markEvents(keys, ttlMs);
    }
  }
  if (hasSubscriptions(inner) && !without.has('Subscriptions')) {
    out.subscribe = (threadKey, ttlMs) => inner.subscribe(threadKey, ttlMs);
    out.unsubscribe = (threadKey) => inner.unsubscribe(threadKey);
    out.isSubscribed = (threadKey) => inner.isSubscribed(threadKey);
    out.touchSubscription = (threadKey) => inner.touchSubscription(threadKey);
  }
  if (hasFencedThreadState(inner) && !without.has('FencedThreadState')) {
    const write: FencedThreadState['writeThreadState'] = (...args) =>
      inner.writeThreadState(...args);
    out.readThreadState = (threadKey: string) => inner.readThreadState(threadKey);
    out.writeThreadState = write;
  }
  return out;
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
