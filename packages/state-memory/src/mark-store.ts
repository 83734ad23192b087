/**
 * The memory State's dedupe marks, kept compact: about 100 bytes of heap per live mark, its key
 * included (`pnpm bench marks`).
 *
 * - A mark is one `Map` entry from its key to its expiry, stored as milliseconds since the
 *   store's creation: a small integer V8 keeps inline in the entry (an epoch-milliseconds number
 *   would be a separate 16-byte heap number). Beyond about 24 days from the store's creation
 *   (V8's small-integer range) the value is boxed: still exact, 16 bytes more.
 * - Expiry is time-bucketed: every key sits in exactly one bucket, a plain array of keys whose
 *   expiry check falls due at the bucket's deadline (its expiry rounded up to the bucket width, the
 *   sweep interval), so scheduling a mark costs one array slot, not an object. Buckets are ordered
 *   by a min-heap of deadlines (a handful of buckets, not one heap node per mark).
 * - A lookup always compares the exact expiry (alive while `now() < expiresAt`); only reclamation
 *   is late, by at most a bucket width plus a sweep interval. A re-marked key whose old mark had
 *   expired but was not yet reclaimed keeps its place; when its bucket comes due, the check finds
 *   it extended and moves it to the bucket of its new expiry.
 */
import { ExpiryHeap } from './expiry-heap.js';
import type { ResolvedMemoryStateOptions } from './options.js';

/** The keys whose expiry check falls due at one deadline; `next` is the first key not checked. */
interface Bucket {
  readonly index: number;
  readonly keys: (string | undefined)[];
  next: number;
}

/** Dedupe marks with bucketed expiry and a bounded background sweeper (arguments already checked). */
export class MarkStore {
  readonly #options: ResolvedMemoryStateOptions;
  /** The time expiries are stored relative to, so that they stay small integers. */
  readonly #epoch: number;
  /** Key to expiry, in milliseconds since `#epoch`. */
  readonly #expiries = new Map<string, number>();
  /** Bucket index (deadline / width) to its bucket. */
  readonly #buckets = new Map<number, Bucket>();
  /** Buckets by deadline, earliest first. */
  readonly #due = new ExpiryHeap<Bucket>();
  /** Keys queued in buckets and not yet checked: exactly one per stored mark. */
  #scheduled = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: ResolvedMemoryStateOptions) {
    this.#options = options;
    this.#epoch = options.now();
  }

  /** Marks stored, including expired ones not yet reclaimed. */
  get size(): number {
    return this.#expiries.size;
  }

  /** Expiry checks queued for the sweeper (one per stored mark). */
  get scheduled(): number {
    return this.#scheduled;
  }

  /** Whether `key` is marked and its mark has not expired at `now`. */
  isMarked(key: string, now: number): boolean {
    const expiresAt = this.#expiries.get(key);
    return expiresAt !== undefined && expiresAt + this.#epoch > now;
  }

  /**
   * Marks `key` until `expiresAt` unless its mark is alive at `now`; true when it marked. One
   * lookup and one write of the map (a miss in a map of many marks is the costly part).
   */
  markUnlessAlive(key: string, now: number, expiresAt: number): boolean {
    const stored = this.#expiries.get(key);
    if (stored !== undefined) {
      if (stored + this.#epoch > now) return false;
      // Expired but not yet reclaimed: its queued check finds it extended and requeues it.
      this.#expiries.set(key, expiresAt - this.#epoch);
      return true;
    }
    flatten(key);
    this.#expiries.set(key, expiresAt - this.#epoch);
    this.#enqueue(key, expiresAt);
    this.#arm(this.#options.sweepIntervalMs);
    return true;
  }

  /** Stops the sweeper and forgets every mark. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#expiries.clear();
    this.#buckets.clear();
    this.#due.clear();
    this.#scheduled = 0;
  }

  /** Queues the one check of `key` in the bucket of `expiresAt` (the caller arms the sweeper). */
  #enqueue(key: string, expiresAt: number): void {
    const width = this.#options.sweepIntervalMs;
    const index = Math.ceil(expiresAt / width);
    let bucket = this.#buckets.get(index);
    if (bucket === undefined) {
      bucket = { index, keys: [], next: 0 };
      this.#buckets.set(index, bucket);
      this.#due.push(index * width, bucket);
    }
    bucket.keys.push(key);
    this.#scheduled += 1;
  }

  #arm(delayMs: number): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sweep();
    }, delayMs);
    this.#timer.unref();
  }

  /** One bounded sweeper tick: at most `sweepBatchSize` checks of due keys, then re-arm. */
  #sweep(): void {
    const now = this.#options.now();
    let budget = this.#options.sweepBatchSize;
    while (budget > 0) {
      const item = this.#due.popDue(now);
      if (item === undefined) break;
      const bucket = item.value;
      const { keys } = bucket;
      for (; bucket.next < keys.length && budget > 0; budget -= 1) {
        const key = keys[bucket.next]!;
        keys[bucket.next] = undefined; // the store no longer holds the key here
        bucket.next += 1;
        this.#scheduled -= 1;
        this.#check(key, now);
      }
      if (bucket.next < keys.length) this.#due.push(item.at, bucket);
      else this.#buckets.delete(bucket.index);
    }
    const next = this.#due.peekAt();
    if (next !== undefined) this.#arm(next <= now ? 0 : this.#options.sweepIntervalMs);
  }

  /** Reclaims the mark when it expired; requeues it when it was extended. */
  #check(key: string, now: number): void {
    const stored = this.#expiries.get(key);
    if (stored === undefined) return; // defensive: every stored key has exactly one check
    const expiresAt = stored + this.#epoch;
    // Queued directly: the running sweep decides when it next runs.
    if (expiresAt > now) this.#enqueue(key, expiresAt);
    else this.#expiries.delete(key);
  }
}

/**
 * V8 keeps a string built by concatenation (as mark keys are: `event:${...}:${...}`) as a tree of
 * its parts, about 200 bytes for a 37-character key. Reading a character flattens it in place,
 * and the collector then drops the tree, so a stored key costs its characters alone (56 bytes).
 * Harmless elsewhere: it reads one character.
 */
function flatten(key: string): void {
  key.charCodeAt(0);
}
