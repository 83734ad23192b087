/**
 * The memory State's Thread Lock leases: one entry per held key, with one queued expiry check in
 * a min-heap of deadlines and a bounded, `unref()`ed sweeper. A renewed lock keeps its check
 * (which reschedules itself when it comes due); a released lock removes its check from the heap at
 * once (O(log n)), so churn on one key (acquire, release, acquire, ...) never piles up checks.
 * Releasing or reclaiming a lock wakes the key's `ReleaseWaiters`.
 *
 * Fencing: one counter per store, shared by all keys and never reset, hands out every fence, so
 * fences are strictly increasing per key, including after a key's entry expired and was
 * reclaimed, without remembering any key. A lease's token is the store's random prefix (one
 * `randomUUID` per store) followed by its fence: unique per store and across stores, and one short
 * string per lease instead of a UUID generated per acquire.
 */
import { randomUUID } from 'node:crypto';
import type { Lease } from '@rt/core';
import type { ReleaseWaiters } from '@rt/core/state';
import { ExpiryHeap, type OwnedExpiryNode } from './expiry-heap.js';
import type { ResolvedMemoryStateOptions } from './options.js';

/**
 * One held key: its lease's fields and, inline, its one queued expiry check (the entry is its own
 * heap node: `at` the check's deadline, `index` its place, -1 while not queued; `value` itself).
 */
interface LockEntry extends OwnedExpiryNode<LockEntry> {
  readonly key: string;
  token: string;
  fence: number;
  expiresAt: number;
}

/** The lock table behind the memory State (arguments already checked). */
export class LockStore {
  readonly #options: ResolvedMemoryStateOptions;
  readonly #waiters: ReleaseWaiters;
  readonly #locks = new Map<string, LockEntry>();
  readonly #expiries = new ExpiryHeap<LockEntry>();
  #lastFence = 0;
  /** What every token of this store starts with (see the module comment). */
  readonly #tokenPrefix = `${randomUUID()}:`;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: ResolvedMemoryStateOptions, waiters: ReleaseWaiters) {
    this.#options = options;
    this.#waiters = waiters;
  }

  /** Lock entries stored, including expired ones not yet reclaimed. */
  get size(): number {
    return this.#locks.size;
  }

  /** Expiry checks queued (one per stored lock). */
  get scheduled(): number {
    return this.#expiries.size;
  }

  /** A fresh lease on `key` for `ttlMs`, or `null` while another lease on it is alive. */
  acquire(key: string, ttlMs: number): Lease | null {
    const now = this.#options.now();
    const held = this.#locks.get(key);
    if (held !== undefined && held.expiresAt > now) return null;
    this.#lastFence += 1;
    const lease: Lease = Object.freeze({
      key,
      token: this.#tokenPrefix + this.#lastFence,
      fence: this.#lastFence,
      expiresAt: now + ttlMs,
    });
    if (held !== undefined) {
      // Expired but not yet reclaimed: reuse the entry; its queued check reschedules itself.
      held.token = lease.token;
      held.fence = lease.fence;
      held.expiresAt = lease.expiresAt;
    } else {
      const entry = newEntry(key, lease.token, lease.fence, now + ttlMs);
      this.#locks.set(key, entry);
      this.#expiries.insert(entry, entry.expiresAt);
      this.#arm(this.#options.sweepIntervalMs);
    }
    return lease;
  }

  /** Extends `lease` to `ttlMs` from now when it is still the live lease of its key. */
  renew(lease: Lease, ttlMs: number): boolean {
    const now = this.#options.now();
    const held = this.#locks.get(lease.key);
    if (held === undefined || held.token !== lease.token) return false;
    if (held.expiresAt <= now) {
      this.#drop(held);
      return false;
    }
    held.expiresAt = now + ttlMs;
    return true;
  }

  /** Forgets `lease` when it is its key's entry; true when it was still alive. */
  release(lease: Lease): boolean {
    const held = this.#locks.get(lease.key);
    if (held === undefined || held.token !== lease.token) return false;
    this.#drop(held);
    return held.expiresAt > this.#options.now();
  }

  /** Milliseconds until the live lease on `key` lapses, or 0 when `key` is free. */
  remainingMs(key: string): number {
    const held = this.#locks.get(key);
    const left = held === undefined ? 0 : held.expiresAt - this.#options.now();
    return Math.max(left, 0);
  }

  /** Stops the sweeper and forgets every lock (waiters are the caller's to reject). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#expiries.clear();
    this.#locks.clear();
  }

  /** Forgets `entry` with its queued check, and wakes its key's waiters. */
  #drop(entry: LockEntry): void {
    this.#locks.delete(entry.key);
    if (entry.index >= 0) {
      this.#expiries.remove(entry);
      if (this.#expiries.size === 0) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
      }
    }
    this.#waiters.wake(entry.key);
  }

  #arm(delayMs: number): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sweep();
    }, delayMs);
    this.#timer.unref();
  }

  /** One bounded sweeper tick: at most `sweepBatchSize` due checks, then re-arm. */
  #sweep(): void {
    const now = this.#options.now();
    for (let budget = this.#options.sweepBatchSize; budget > 0; budget -= 1) {
      const due = this.#expiries.popDue(now);
      if (due === undefined) break;
      const entry = due.value; // popped: its index is -1
      if (this.#locks.get(entry.key) !== entry) continue; // defensive: removal takes the check
      // Inserted directly: the running sweep decides when it next runs.
      if (entry.expiresAt > now) this.#expiries.insert(entry, entry.expiresAt);
      else this.#drop(entry);
    }
    const next = this.#expiries.peekAt();
    if (next !== undefined) this.#arm(next <= now ? 0 : this.#options.sweepIntervalMs);
  }
}

/** A lock entry, not yet queued: `value` (itself) is filled in once the object exists. */
function newEntry(key: string, token: string, fence: number, expiresAt: number): LockEntry {
  const entry = { key, token, fence, expiresAt, at: 0, index: -1, value: null as unknown };
  entry.value = entry;
  return entry as LockEntry;
}
