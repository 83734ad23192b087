/**
 * The fixed figures of the conversation layer (docs/conversations.md): default TTLs of a
 * subscription and of thread state, and how often `ctx.thread.state.update` retries.
 */
import { MAX_THREAD_STATE_BYTES } from '../state/thread-capabilities.js';

/** Defaults of `ctx.thread`. */
export interface ThreadDefaults {
  /** A subscription's TTL when `subscribe()` names none: 24 hours, refreshed per routed message. */
  readonly subscriptionTtlMs: number;
  /** Thread state's TTL when `set`/`update` names none: 7 days from the last write. */
  readonly stateTtlMs: number;
  /** How many read-modify-write attempts `update` makes before `ThreadStateConflictError`: 5. */
  readonly updateAttempts: number;
  /** The bound on one thread's serialised state, in UTF-8 bytes: 16 KiB. */
  readonly maxStateBytes: number;
}

/** The defaults of `ctx.thread`. */
export const THREAD_DEFAULTS: ThreadDefaults = Object.freeze({
  subscriptionTtlMs: 24 * 60 * 60 * 1000,
  stateTtlMs: 7 * 24 * 60 * 60 * 1000,
  updateAttempts: 5,
  maxStateBytes: MAX_THREAD_STATE_BYTES,
});
