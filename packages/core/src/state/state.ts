/**
 * The State contract (docs/contract.md §8): coordination state only, dedupe marks and Thread Lock leases.
 * Never event payloads, message history or application data. Optional capabilities
 * (`LockWakeups`, `MultiKeyMark`) are separate interfaces, each detected with one type guard.
 */

/** A held Thread Lock lease. `token` proves ownership; `fence` increases strictly per key. */
export interface Lease {
  readonly key: string;
  readonly token: string;
  readonly fence: number;
  /** Epoch milliseconds at which the lease lapses unless renewed (as granted by the State). */
  readonly expiresAt: number;
}

/**
 * Where an rt runtime keeps coordination state. Every operation is atomic. Implementations throw
 * `StateUnavailableError` (from `@rt/core`) when the store cannot be reached, and never block
 * without bound.
 */
export interface State {
  /**
   * Marks `key` as seen for `ttlMs`. Resolves `true` for the first mark, `false` while an earlier
   * mark is alive. There is no read-only probe.
   */
  markEvent(key: string, ttlMs: number): Promise<boolean>;
  /** Takes the lock on `key` for `ttlMs`, or resolves `null` when another holder has it. */
  acquireLock(key: string, ttlMs: number): Promise<Lease | null>;
  /**
   * Extends a lease the caller still holds to `ttlMs` from now. Resolves `false` when the lease
   * was lost (expired, or the token no longer matches); never extends another holder's lease.
   */
  renewLock(lease: Lease, ttlMs: number): Promise<boolean>;
  /** Releases the lock only when `lease.token` still holds it. Resolves whether it did. */
  releaseLock(lease: Lease): Promise<boolean>;
  /** Frees the State's resources. Idempotent. */
  close(): Promise<void>;
}

/**
 * Optional capability: a State that can tell a waiter when a lock key is released, so a queue
 * waiter need not poll. Detected at runtime with `hasLockWakeups`; never required.
 */
export interface LockWakeups {
  /**
   * Resolves when `key` is released (or may have been) or after `timeoutMs`, whichever comes
   * first; rejects with `signal.reason` when `signal` aborts. A wake-up is a hint: the caller
   * still has to acquire.
   */
  waitForRelease(key: string, timeoutMs: number, signal: AbortSignal): Promise<void>;
}

/** True when `state` offers the optional `LockWakeups` capability. */
export function hasLockWakeups(state: State): state is State & LockWakeups {
  return typeof (state as Partial<LockWakeups>).waitForRelease === 'function';
}

/**
 * Optional capability: marks several identities of one delivery at once, atomically, so a
 * delivery is a duplicate when any of them was seen (Slack sends one message under two event
 * ids, or as an `app_mention` and a `message`). Detected at runtime with `hasMultiKeyMark`; never
 * required: without it a caller marks the primary identity alone with `markEvent`.
 *
 * **One key space.** `markEvents([k, ...])` and `markEvent(k)` read and write the same marks: a
 * key marked by either is alive for the other. The first key is the event's primary identity
 * (`event:<adapter>:<tenant>:<id>`), so a plain redelivery that only carries it still meets the
 * mark, and a later multi-mark meets a mark `markEvent` took.
 *
 * **All or nothing.** Marking the keys one after another would be wrong: a failure between two
 * marks would leave the first one alive, so the platform's retry of a delivery that was refused
 * as unavailable would be answered `duplicate` and never handled (the honesty contract: nothing
 * refused or failed is marked). Hence one atomic step: every key is marked or none is.
 *
 * **Keys** (see `assertMarkKeys`): 1 to `MAX_MARK_KEYS` distinct non-empty strings. More than one
 * must all name one installation in the rt form `<kind>:<adapter>:<tenant>:<rest>` (build them
 * with `installationMarkKey`): the identities of one delivery belong to one installation, and a
 * sharded store (a Redis Cluster) keeps one installation's marks together so it can take them in
 * one atomic step.
 */
export interface MultiKeyMark {
  /**
   * Resolves `true` when none of `keys` has a live mark, after marking every one of them for
   * `ttlMs`; resolves `false`, changing nothing (no key is marked, no live mark is extended),
   * when any of them is alive. Atomic against every other `markEvent`/`markEvents` on the same
   * store. Rejects with `StateUnavailableError` when the store cannot be reached, having marked
   * none of the keys (a store that may have run the step before its reply was lost says so in
   * its own documentation, as for `markEvent`); bad arguments reject with `TypeError` or
   * `RangeError` and mark nothing.
   */
  markEvents(keys: readonly string[], ttlMs: number): Promise<boolean>;
}

/** True when `state` offers the optional `MultiKeyMark` capability. */
export function hasMultiKeyMark(state: State): state is State & MultiKeyMark {
  return typeof (state as Partial<MultiKeyMark>).markEvents === 'function';
}
