/**
 * The State author's entry point (`@rt/core/state`): the State contract and its optional
 * capabilities, the argument checks every implementation applies, the release-wake-up helper and
 * the form of rt's dedupe mark keys. A bot author only passes a State to `createRuntime` and needs
 * none of this.
 */
export {
  installationMarkKey,
  MAX_MARK_KEYS,
  markKeyInstallation,
} from './mark-keys.js';
export { ReleaseWaiters, type ReleaseWaitersOptions } from './release-waiters.js';
export {
  hasLockWakeups,
  hasMultiKeyMark,
  type Lease,
  type LockWakeups,
  type MultiKeyMark,
  type State,
} from './state.js';
export {
  type FencedThreadState,
  hasFencedThreadState,
  hasSubscriptions,
  MAX_THREAD_STATE_BYTES,
  type Subscriptions,
  type ThreadStateRecord,
  type ThreadStateWriteResult,
} from './thread-capabilities.js';
export {
  assertKey,
  assertLease,
  assertMarkKeys,
  assertTimeoutMs,
  assertTtlMs,
} from './validate-arguments.js';
export {
  assertExpectedVersion,
  assertFence,
  assertThreadStateValue,
  utf8Length,
} from './validate-thread-arguments.js';
