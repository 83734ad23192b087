import type { PostedMessage } from '../../adapter/adapter.js';

/**
 * The rate budget a platform writer gives the stream scheduler. The scheduler never calls the
 * writer more often than once per `minIntervalMs` (a rate-limit answer stretches the gap to its
 * `Retry-After`), and never hands one write more than `maxCharsPerWrite` characters.
 */
export interface StreamWriterLimits {
  /** Least ms between the starts of two consecutive writer calls (waiting signals excluded). */
  readonly minIntervalMs: number;
  /** Most characters of new text one `write` or `finish` receives. */
  readonly maxCharsPerWrite: number;
  /**
   * Ms after which a waiting signal (`waiting`) lapses on the platform and must be renewed before
   * the first write; `undefined` when it lasts until the first message (Slack's thread status).
   */
  readonly waitingRenewMs?: number;
}

/** How a stream ended, as the writer must show it. */
export type StreamEnd =
  /** The source ended: the text is complete. */
  | { readonly kind: 'completed' }
  /** The signal aborted, or the source threw: `marker` must be shown at the end of the reply. */
  | { readonly kind: 'interrupted' | 'failed'; readonly marker: string };

/**
 * The platform side of a streamed reply: one per stream, driven by the scheduler (`runStream`),
 * which calls it one call at a time, never concurrently. Each `write` and `finish` makes at most
 * one platform call, so the scheduler's rate budget is the platform's. A writer keeps whatever
 * state it needs (the message id, the text so far when it replaces rather than appends).
 *
 * A call that the platform rate-limits throws `StreamRateLimitedError` and changes nothing: the
 * scheduler retries it with the same text (and what arrived since). Any other error ends the
 * stream (`failed`). Every call takes the signal that bounds it; after the stream's own signal
 * aborted, `finish` gets a fresh one bounded by `finishTimeoutMs`.
 */
export interface StreamWriter {
  /** Which platform path this writer takes (e.g. `slack-stream`, `slack-update`, `discord-edit`). */
  readonly path: string;
  readonly limits: StreamWriterLimits;
  /**
   * Most characters the next `write` can add in one platform call (e.g. what is left of a
   * 2000-character message, or a whole new message once it is full). Never 0. Default: no bound
   * beyond `maxCharsPerWrite`.
   */
  room?(): number;
  /**
   * Shows that a reply is coming (Discord typing, Slack's assistant status) until the first write.
   * Best effort: what it throws is ignored. Called again every `waitingRenewMs` while waiting.
   */
  waiting?(signal: AbortSignal): Promise<void>;
  /**
   * Adds `delta` (non-empty) to the reply; the first call posts it. Resolves where the reply's
   * current message landed.
   */
  write(delta: string, signal: AbortSignal): Promise<PostedMessage>;
  /**
   * Ends the reply: adds `delta` (possibly empty; it fits `room()`), and for `interrupted` or
   * `failed` the end's marker after it. Resolves where the reply (its last message) landed. When
   * nothing was written yet, it posts `delta` and the marker (or, completed and empty, the
   * scheduler's `emptyText` as `delta`).
   */
  finish(delta: string, end: StreamEnd, signal: AbortSignal): Promise<PostedMessage>;
}
