/**
 * `State` in process memory: dedupe marks and Thread Lock leases for one instance (and tests).
 *
 * Atomicity: every operation checks and writes without an `await` in between, so on one JS thread
 * no other operation can interleave. Expiry: an entry is alive while `now() < expiresAt`. Expired
 * entries are reclaimed lazily when touched and by an incremental sweeper driven by a min-heap of
 * deadlines (bounded work per tick, `unref()`ed timer), so memory follows the live set even under
 * a flood of unique keys, and no operation scans the store. Every stored entry has exactly one
 * scheduled check: a renewed or re-marked entry keeps its check (which reschedules itself when it
 * comes due), and a released lock removes its check from the heap at once (O(log n)), so churn on
 * one key (acquire, release, acquire, ...) never piles up checks.
 */
import { randomUUID } from 'node:crypto';
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
import { ExpiryHeap, type ExpiryItem } from './expiry-heap.js';
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

interface MarkEntry {
  expiresAt: number;
  /** The entry's one queued expiry check. */
  check?: ExpiryItem<Scheduled>;
}

interface LockEntry {
  token: string;
  fence: number;
  expiresAt: number;
  /** The entry's one queued expiry check, removed with the entry on release. */
  check?: ExpiryItem<Scheduled>;
}

type Scheduled =
  | { readonly kind: 'mark'; readonly key: string; readonly entry: MarkEntry }
  | { readonly kind: 'lock'; readonly key: string; readonly entry: LockEntry };

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
 * After `close()` (idempotent; stops the sweeper, drops all entries, rejects parked waiters) every
 * operation rejects with `StateClosedError`. Bad arguments reject with `TypeError`/`RangeError`.
 */
export function createMemoryState(options?: MemoryStateOptions): MemoryState {
  return new MemoryStateImpl(resolveMemoryStateOptions(options));
}

class MemoryStateImpl implements MemoryState {
  readonly #options: ResolvedMemoryStateOptions;
  readonly #marks = new Map<string, MarkEntry>();
  readonly #locks = new Map<string, LockEntry>();
  readonly #expiries = new ExpiryHeap<Scheduled>();
  readonly #waiters = new ReleaseWaiters();
  readonly #conversations: MemoryConversations;
  #lastFence = 0;
  #sweepTimer: NodeJS.Timeout | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: ResolvedMemoryStateOptions) {
    this.#options = options;
    this.#conversations = new MemoryConversations(options);
  }

  async markEvent(key: string, ttlMs: number): Promise<boolean> {
    this.#assertOpen('markEvent');
    assertKey(key);
    assertTtlMs(ttlMs);
    const now = this.#options.now();
    if (this.#isMarked(key, now)) return false;
    this.#mark(key, now + ttlMs);
    return true;
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
    if (keys.some((key) => this.#isMarked(key, now))) return false;
    for (const key of keys) this.#mark(key, now + ttlMs);
    return true;
  }

  async acquireLock(key: string, ttlMs: number): Promise<Lease | null> {
    this.#assertOpen('acquireLock');
    assertKey(key);
    assertTtlMs(ttlMs);
    const now = this.#options.now();
    const held = this.#locks.get(key);
    if (held !== undefined && held.expiresAt > now) return null;
    this.#lastFence += 1;
    const lease: Lease = Object.freeze({
      key,
      token: randomUUID(),
      fence: this.#lastFence,
      expiresAt: now + ttlMs,
    });
    if (held !== undefined) {
      held.token = lease.token;
      held.fence = lease.fence;
      held.expiresAt = lease.expiresAt;
    } else {
      const entry: LockEntry = {
        token: lease.token,
        fence: lease.fence,
        expiresAt: lease.expiresAt,
      };
      this.#locks.set(key, entry);
      this.#schedule({ kind: 'lock', key, entry });
    }
    return lease;
  }

  async renewLock(lease: Lease, ttlMs: number): Promise<boolean> {
    this.#assertOpen('renewLock');
    assertLease(lease);
    assertTtlMs(ttlMs);
    const now = this.#options.now();
    const held = this.#locks.get(lease.key);
    if (held === undefined || held.token !== lease.token) return false;
    if (held.expiresAt <= now) {
      this.#dropLock(lease.key);
      return false;
    }
    held.expiresAt = now + ttlMs;
    return true;
  }

  async releaseLock(lease: Lease): Promise<boolean> {
    this.#assertOpen('releaseLock');
    assertLease(lease);
    const held = this.#locks.get(lease.key);
    if (held === undefined || held.token !== lease.token) return false;
    this.#dropLock(lease.key);
    return held.expiresAt > this.#options.now();
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
    const now = this.#options.now();
    const held = this.#locks.get(key);
    if (held === undefined || held.expiresAt <= now) return;
    await this.#waiters.wait(key, Math.min(timeoutMs, held.expiresAt - now), signal);
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
      scheduled: this.#expiries.size,
      waiters: this.#waiters.size,
      ...this.#conversations.sizes,
    };
  }

  close(): Promise<void> {
    if (this.#closed === undefined) {
      this.#disarmSweeper();
      this.#expiries.clear();
      this.#marks.clear();
      this.#locks.clear();
      this.#conversations.close();
      this.#waiters.rejectAll(new StateClosedError('memory', 'waitForRelease'));
      this.#closed = Promise.resolve();
    }
    return this.#closed;
  }

  #isMarked(key: string, now: number): boolean {
    const mark = this.#marks.get(key);
    return mark !== undefined && mark.expiresAt > now;
  }

  /** Marks `key` until `expiresAt`; the caller has checked that it is not alive. */
  #mark(key: string, expiresAt: number): void {
    const mark = this.#marks.get(key);
    if (mark !== undefined) {
      // Expired but not yet swept: reuse the entry; its queued check reschedules itself.
      mark.expiresAt = expiresAt;
      return;
    }
    const entry: MarkEntry = { expiresAt };
    this.#marks.set(key, entry);
    this.#schedule({ kind: 'mark', key, entry });
  }

  #assertOpen(operation: string): void {
    if (this.#closed !== undefined) throw new StateClosedError('memory', operation);
  }

  /** Forgets the lock on `key` with its queued check, and wakes the key's waiters. */
  #dropLock(key: string): void {
    const entry = this.#locks.get(key);
    this.#locks.delete(key);
    if (entry?.check !== undefined) {
      this.#expiries.remove(entry.check);
      entry.check = undefined;
      if (this.#expiries.size === 0) this.#disarmSweeper();
    }
    this.#waiters.wake(key);
  }

  #schedule(item: Scheduled): void {
    item.entry.check = this.#expiries.push(item.entry.expiresAt, item);
    this.#armSweeper(this.#options.sweepIntervalMs);
  }

  #disarmSweeper(): void {
    clearTimeout(this.#sweepTimer);
    this.#sweepTimer = undefined;
  }

  #armSweeper(delayMs: number): void {
    if (this.#sweepTimer !== undefined || this.#closed !== undefined) return;
    this.#sweepTimer = setTimeout(() => {
      this.#sweepTimer = undefined;
      this.#sweep();
    }, delayMs);
    this.#sweepTimer.unref();
  }

  /** One bounded sweeper tick: at most `sweepBatchSize` due checks, then re-arm. */
  #sweep(): void {
    const now = this.#options.now();
    for (let budget = this.#options.sweepBatchSize; budget > 0; budget -= 1) {
      const due = this.#expiries.popDue(now);
      if (due === undefined) break;
      this.#check(due.value, now);
    }
    const next = this.#expiries.peekAt();
    if (next !== undefined) this.#armSweeper(next <= now ? 0 : this.#options.sweepIntervalMs);
  }

  /** Reclaims the entry when it expired; reschedules it when it was extended. */
  #check(item: Scheduled, now: number): void {
    item.entry.check = undefined; // popped
    const map: Map<string, MarkEntry | LockEntry> =
      item.kind === 'mark' ? this.#marks : this.#locks;
    if (map.get(item.key) !== item.entry) return; // defensive: removal takes the check along
    if (item.entry.expiresAt > now) {
      // Pushed directly: the running sweep decides when it next runs.
      item.entry.check = this.#expiries.push(item.entry.expiresAt, item);
    } else if (item.kind === 'lock') {
      this.#dropLock(item.key);
    } else {
      this.#marks.delete(item.key);
    }
  }
}
