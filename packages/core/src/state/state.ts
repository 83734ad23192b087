/**
 * The State contract (SPEC 8): coordination state only, dedupe marks and Thread Lock leases.
 * Never event payloads, message history or application data.
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
