/**
 * `State` in process memory: dedupe marks and Thread Lock leases for one instance (and tests).
 * This file is the facade (argument checks, the closed state, stats); the stores are
 * `mark-store.ts` (compact marks, time-bucketed expiry), `lock-store.ts` (leases, fences) and
 * `memory-conversations.ts` (subscriptions, thread state).
 *
 * Atomicity: every operation checks and writes without an `await` in between, so on one JS thread
 * no other operation can interleave. Expiry: an entry is alive while `now() < expiresAt`, always
 * checked exactly on lookup. Expired entries are reclaimed lazily when touched and by incremental
 * sweepers (bounded work per tick, `unref()`ed timers, armed only while something is queued), so
 * memory follows the live set even under a flood of unique keys, and no operation scans the
 * store. Every stored entry has exactly one queued check: a renewed or re-marked entry keeps its
 * check (which requeues itself when it comes due), and a released lock removes its check at once,
 * so churn on one key never piles up checks.
 */
import type { Lease, State } from '@rt/core';
import { StateClosedError } from '@rt/core';
import type {
  FencedThreadState,
  LockWakeups,
  MultiKeyMark,
  Subscriptions,
  ThreadStateRecord,
  ThreadStateWriteResult,
} from '@rt/core/state';
import {
  assertExpectedVersion,
  assertFence,
  assertKey,
  assertLease,
  assertMarkKeys,
  assertThreadStateValue,
  assertTimeoutMs,
  assertTtlMs,
  ReleaseWaiters,
} from '@rt/core/state';
import { LockStore } from './lock-store.js';
import { MarkStore } from './mark-store.js';
import { MemoryConversations } from './memory-conversations.js';
import {
  type MemoryStateOptions,
  type ResolvedMemoryStateOptions,
  resolveMemoryStateOptions,
} from './options.js';

/** Counts that let tests (and operators) see reclamation at work. */
export interface MemoryStateStats {
  /** Dedupe marks stored, including expired ones not yet reclaimed. */
  readonly marks: number;
  /** Lock entries stored, including expired ones not yet reclaimed. */
  readonly locks: number;
  /**
   * Expiry checks queued for the sweeper: exactly one per stored mark or lock (`marks + locks`),
   * whatever the churn.
   */
  readonly scheduled: number;
  /** Callers parked in `waitForRelease`. */
  readonly waiters: number;
  /** Thread subscriptions stored, including expired ones not yet reclaimed. */
  readonly subscriptions: number;
  /** Thread states stored, including expired ones not yet reclaimed. */
  readonly threadStates: number;
}

/**
 * A memory `State` with the `LockWakeups`, `MultiKeyMark`, `Subscriptions` and
 * `FencedThreadState` capabilities and introspection.
 */
export interface MemoryState
  extends State,
    LockWakeups,
    MultiKeyMark,
    Subscriptions,
    FencedThreadState {
  /** Live counts; cheap (no scan). */
  stats(): MemoryStateStats;
}

/**
 * Creates a State that lives in this process. It coordinates only callers that share this object:
 * use `@rt/state-redis` when more than one instance serves the same bot.
 *
 * Fencing: one counter per State, shared by all keys and never reset, hands out every fence. It is
 * strictly increasing overall, hence strictly increasing per key, including after a key's lock
 * entry expired and was reclaimed, without remembering any key. Fences of different State objects
 * are not comparable.
 *
 * Multi-key marks (`markEvents`, the optional `MultiKeyMark` capability) are the same marks as
 * `markEvent`'s, with the same expiry and reclamation: each key of a successful call is one mark
 * entry with one queued check.
 *
 * Subscriptions and thread state (the `Subscriptions` and `FencedThreadState` capabilities) live
 * beside them with the same expiry model; a thread state write is accepted only when its fence is
 * at least the stored one (docs/conversations.md).
 *
 * After `close()` (idempotent; stops the sweepers, drops all entries, rejects parked waiters) every
 * operation rejects with `StateClosedError`. Bad arguments reject with `TypeError`/`RangeError`.
 */
export function createMemoryState(options?: MemoryStateOptions): MemoryState {
  return new MemoryStateImpl(resolveMemoryStateOptions(options));
}

class MemoryStateImpl implements MemoryState {
  readonly #options: ResolvedMemoryStateOptions;
  readonly #waiters = new ReleaseWaiters();
  readonly #marks: MarkStore;
  readonly #locks: LockStore;
  readonly #conversations: MemoryConversations;
  #closed: Promise<void> | undefined;

  constructor(options: ResolvedMemoryStateOptions) {
    this.#options = options;
    this.#marks = new MarkStore(options);
    this.#locks = new LockStore(options, this.#waiters);
    this.#conversations = new MemoryConversations(options);
  }

  async markEvent(key: string, ttlMs: number): Promise<boolean> {
    this.#assertOpen('markEvent');
    assertKey(key);
    assertTtlMs(ttlMs);
    const now = this.#options.now();
    return this.#marks.markUnlessAlive(key, now, now + ttlMs);
  }

  /**
   * All or nothing: when any key is alive nothing is written (no key marked, no mark extended);
   * otherwise every key is marked for `ttlMs`. The check and the writes run without an `await`,
   * so no other operation can come between them. Shares its marks with `markEvent`.
   */
  async markEvents(keys: readonly string[], ttlMs: number): Promise<boolean> {
    this.#assertOpen('markEvents');
    assertMarkKeys(keys);
    assertTtlMs(ttlMs);
    const now = this.#options.now();
    for (const key of keys) if (this.#marks.isMarked(key, now)) return false;
    for (const key of keys) this.#marks.markUnlessAlive(key, now, now + ttlMs);
    return true;
  }

  async acquireLock(key: string, ttlMs: number): Promise<Lease | null> {
    this.#assertOpen('acquireLock');
    assertKey(key);
    assertTtlMs(ttlMs);
    return this.#locks.acquire(key, ttlMs);
  }

  async renewLock(lease: Lease, ttlMs: number): Promise<boolean> {
    this.#assertOpen('renewLock');
    assertLease(lease);
    assertTtlMs(ttlMs);
    return this.#locks.renew(lease, ttlMs);
  }

  async releaseLock(lease: Lease): Promise<boolean> {
    this.#assertOpen('releaseLock');
    assertLease(lease);
    return this.#locks.release(lease);
  }

  /**
   * Resolves at once when `key` is free; otherwise when it is released, when its current lease
   * would lapse (the lease may have been renewed since: a wake-up is only a hint), or after
   * `timeoutMs`, whichever is first. Rejects with `signal.reason` on abort and with
   * `StateClosedError` when the State closes. Its timer and abort listener are removed however it
   * ends; aborting cancels only the wait.
   */
  async waitForRelease(key: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    this.#assertOpen('waitForRelease');
    assertKey(key);
    assertTimeoutMs(timeoutMs);
    if (!(signal instanceof AbortSignal)) throw new TypeError('signal must be an AbortSignal');
    signal.throwIfAborted();
    const remainingMs = this.#locks.remainingMs(key);
    if (remainingMs === 0) return;
    await this.#waiters.wait(key, Math.min(timeoutMs, remainingMs), signal);
  }

  async subscribe(threadKey: string, ttlMs: number): Promise<void> {
    this.#assertOpen('subscribe');
    assertKey(threadKey, 'threadKey');
    assertTtlMs(ttlMs);
    this.#conversations.subscribe(threadKey, ttlMs);
  }

  async unsubscribe(threadKey: string): Promise<boolean> {
    this.#assertOpen('unsubscribe');
    assertKey(threadKey, 'threadKey');
    return this.#conversations.unsubscribe(threadKey);
  }

  async isSubscribed(threadKey: string): Promise<boolean> {
    this.#assertOpen('isSubscribed');
    assertKey(threadKey, 'threadKey');
    return this.#conversations.isSubscribed(threadKey);
  }

  async touchSubscription(threadKey: string): Promise<boolean> {
    this.#assertOpen('touchSubscription');
    assertKey(threadKey, 'threadKey');
    return this.#conversations.touch(threadKey);
  }

  async readThreadState(threadKey: string): Promise<ThreadStateRecord | null> {
    this.#assertOpen('readThreadState');
    assertKey(threadKey, 'threadKey');
    return this.#conversations.read(threadKey);
  }

  async writeThreadState(
    threadKey: string,
    value: string,
    fence: number,
    ttlMs: number,
    expectedVersion?: number,
  ): Promise<ThreadStateWriteResult> {
    this.#assertOpen('writeThreadState');
    assertKey(threadKey, 'threadKey');
    assertThreadStateValue(value);
    assertFence(fence);
    assertTtlMs(ttlMs);
    assertExpectedVersion(expectedVersion);
    return this.#conversations.write(threadKey, value, fence, ttlMs, expectedVersion);
  }

  stats(): MemoryStateStats {
    return {
      marks: this.#marks.size,
      locks: this.#locks.size,
      scheduled: this.#marks.scheduled + this.#locks.scheduled,
      waiters: this.#waiters.size,
      ...this.#conversations.sizes,
    };
  }

  close(): Promise<void> {
    if (this.#closed === undefined) {
      this.#marks.close();
      this.#locks.close();
      this.#conversations.close();
      this.#waiters.rejectAll(new StateClosedError('memory', 'waitForRelease'));
      this.#closed = Promise.resolve();
    }
    return this.#closed;
  }

  #assertOpen(operation: string): void {
    if (this.#closed !== undefined) throw new StateClosedError('memory', operation);
  }
}
