/**
 * Two optional State capabilities of the conversation layer (docs/conversations.md): thread
 * subscriptions and fenced thread state. Both are keyed by a **thread key**, the string the runtime
 * builds for one conversation of one installation, `<adapter>:<tenant>:<channel>:<thread>` with
 * every part URI-encoded (`threadKeyOf` in `@rt/core`); a State treats it as opaque, and a sharded
 * store keeps every key of one thread together (one Redis Cluster slot). Each is detected at
 * runtime with its own type guard and never required.
 */
import type { State } from './state.js';

/** The most UTF-8 bytes one thread's serialised state may take: 16 KiB. */
export const MAX_THREAD_STATE_BYTES = 16_384;

/**
 * Optional capability: thread subscriptions. A subscription is a mark on a thread key with its own
 * TTL; while it lives, the runtime routes plain messages of that thread to `onSubscribedMessage`.
 * Every operation is atomic; failures reject with `StateUnavailableError` (nothing changed when
 * the store refused it; a store that may have run the step before its reply was lost says so), bad
 * arguments with `TypeError`/`RangeError`.
 */
export interface Subscriptions {
  /** Subscribes `threadKey` for `ttlMs` from now, replacing any earlier subscription's TTL. */
  subscribe(threadKey: string, ttlMs: number): Promise<void>;
  /** Removes the subscription. Resolves whether a live one was removed. */
  unsubscribe(threadKey: string): Promise<boolean>;
  /** Resolves whether `threadKey` has a live subscription. Changes nothing. */
  isSubscribed(threadKey: string): Promise<boolean>;
  /**
   * Resolves `true` when `threadKey` has a live subscription, after extending it by its own TTL
   * (the one `subscribe` gave) from now; `false`, writing nothing, otherwise. One store round trip:
   * the runtime's only State call for a plain message in a thread.
   */
  touchSubscription(threadKey: string): Promise<boolean>;
}

/** True when `state` offers the optional `Subscriptions` capability. */
export function hasSubscriptions(state: State): state is State & Subscriptions {
  const candidate = state as Partial<Subscriptions>;
  return (
    typeof candidate.subscribe === 'function' &&
    typeof candidate.unsubscribe === 'function' &&
    typeof candidate.isSubscribed === 'function' &&
    typeof candidate.touchSubscription === 'function'
  );
}

/** One thread's stored state. */
export interface ThreadStateRecord {
  /** The serialised JSON value, as written. */
  readonly value: string;
  /** The fence of the write that stored it: the floor every later write must reach. */
  readonly fence: number;
  /** Rises by one on every accepted write (1 for the first); 0 is "no record". */
  readonly version: number;
}

/** What a thread state write did. Nothing is written unless `ok`. */
export type ThreadStateWriteResult =
  | { readonly ok: true; readonly version: number }
  /** The write's fence is below the stored one: a writer that lost its lease. */
  | { readonly ok: false; readonly reason: 'stale-fence'; readonly fence: number }
  /** `expectedVersion` was given and the stored version differs (a concurrent write). */
  | { readonly ok: false; readonly reason: 'version-mismatch'; readonly version: number };

/**
 * Optional capability: one fenced JSON value per thread key, with a TTL.
 *
 * **The fence rule.** A write carries the fence of the Thread Lock its writer holds. The State
 * accepts it only when that fence is at least the stored record's fence (equal: the same holder
 * writing again), and then stores value, fence and a version one higher, with the write's TTL,
 * in one atomic step. A lower fence is refused (`stale-fence`) and changes nothing: a writer that
 * lost its lease can never replace what its successor wrote. The floor lives as long as the
 * record (its TTL): after the record expired any fence is accepted again.
 *
 * **Versions.** With `expectedVersion`, the write is also refused (`version-mismatch`) unless the
 * stored version equals it (0: no record), which makes a read-modify-write safe.
 *
 * Failures reject with `StateUnavailableError` and leave the previous record intact (a store that
 * may have run the step before its reply was lost says so); bad arguments reject with
 * `TypeError`/`RangeError` (a value over `MAX_THREAD_STATE_BYTES` is a `RangeError`).
 */
export interface FencedThreadState {
  /** The live record of `threadKey`, or `null`. */
  readThreadState(threadKey: string): Promise<ThreadStateRecord | null>;
  /** Writes `value` under the fence rule (and the version check when `expectedVersion` is set). */
  writeThreadState(
    threadKey: string,
    value: string,
    fence: number,
    ttlMs: number,
    expectedVersion?: number,
  ): Promise<ThreadStateWriteResult>;
}

/** True when `state` offers the optional `FencedThreadState` capability. */
export function hasFencedThreadState(state: State): state is State & FencedThreadState {
  const candidate = state as Partial<FencedThreadState>;
  return (
    typeof candidate.readThreadState === 'function' &&
    typeof candidate.writeThreadState === 'function'
  );
}
