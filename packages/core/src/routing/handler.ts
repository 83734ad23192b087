import type { Adapter, PostedMessage } from '../adapter/adapter.js';
import type { StreamReplyOptions } from '../adapter/stream-replier.js';
import type { TextSource } from '../adapter-kit/stream/source.js';
import type { ContextActions } from '../conversation/actions.js';
import type { ThreadContext } from '../conversation/thread-context.js';
import type { RtEvent } from '../event/event.js';
import type { DispatchMode } from '../observe/observation.js';

/** The Thread Lock a handler runs under, for fencing its own writes. */
export interface HeldLockInfo {
  readonly key: string;
  /** Strictly increasing per key: a write tagged with a lower fence is stale. */
  readonly fence: number;
}

/**
 * Everything a handler receives. The conversation actions (`reply`, `post`, `edit`, `delete`,
 * `react`, `unreact`, `ephemeral`, `typing`, `openForm`, `dm`; docs/messages.md) are bound to
 * `signal` unless a call passes its own, sent through the adapter's bounded outbound and observed
 * (`conversation_action`). Call them as methods (`ctx.post(card)`); `reply` alone may be
 * destructured.
 */
export interface HandlerContext<Payload = unknown> extends ContextActions {
  readonly event: RtEvent<Payload>;
  /**
   * Aborts when the handler must stop: `DetachTimeoutError` (deferred, past `detachTimeoutMs`),
   * `ShutdownError` (shutdown grace over), `PreemptedError` (lease lost), or the adapter's own
   * reason for sync dispatch. The runtime keeps the delivery's slot until the handler's promise
   * settles, even after the abort: stop promptly. A getter: the signal is built on first read
   * (the same one on every read), so a handler that never reads it costs no `AbortSignal`.
   */
  readonly signal: AbortSignal;
  readonly mode: DispatchMode;
  /** The lock the handler runs under; `undefined` for strategies that take none (concurrent). */
  readonly lock: HeldLockInfo | undefined;
  /** queue and debounce: the events this delivery superseded on this instance, oldest first. */
  readonly skipped: readonly RtEvent<Payload>[];
  /** burst: every member of the batch in arrival order; otherwise `[event]`. */
  readonly batch: readonly RtEvent<Payload>[];
  /**
   * The event's thread: subscribe it (its plain messages then go to `onSubscribedMessage`) and
   * keep one small fenced JSON value for it (docs/conversations.md). Built on first read.
   */
  readonly thread: ThreadContext;
  /**
   * The adapter that received the event. For platform calls without a cast use the adapter's own
   * `for(ctx)` (e.g. `slack.for(ctx)`), which binds them to this handler's signal.
   */
  readonly adapter: Adapter;
  /**
   * Posts a reply to `event` that grows as `source` yields text (the AI SDK's `textStream` as
   * is), buffered and written within the platform's rate limits; resolves where it landed once
   * the source ended and its whole text is shown. Bound to `signal` (or `options.signal`): at the
   * abort the source is cancelled, the reply ends with the interrupted marker, and the call
   * rejects with `StreamInterruptedError`. A source that throws ends the reply with the error
   * marker and its error is rethrown. `StreamUnsupportedError` when the adapter cannot stream.
   * Options and defaults: `StreamOptions` (docs/streaming.md).
   */
  stream(source: TextSource, options?: StreamReplyOptions): Promise<PostedMessage>;
}

/**
 * A handler. Its return value (when not `undefined`) becomes the sync dispatch `response`; what it
 * throws makes the outcome `failed` without stopping other matched handlers.
 */
export type Handler<Payload = unknown> = (ctx: HandlerContext<Payload>) => unknown;
