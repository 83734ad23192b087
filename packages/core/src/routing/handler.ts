import type { Adapter, OutboundMessage, PostedMessage } from '../adapter/adapter.js';
import type { StreamReplyOptions } from '../adapter/stream-replier.js';
import type { TextSource } from '../adapter-kit/stream/source.js';
import type { RtEvent } from '../event/event.js';
import type { DispatchMode } from '../observe/observation.js';

/** The Thread Lock a handler runs under, for fencing its own writes. */
export interface HeldLockInfo {
  readonly key: string;
  /** Strictly increasing per key: a write tagged with a lower fence is stale. */
  readonly fence: number;
}

/** Everything a handler receives. */
export interface HandlerContext<Payload = unknown> {
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
  /** The adapter that received the event (cast to its own type for platform calls). */
  readonly adapter: Adapter;
  /**
   * Posts a reply to `event` through its adapter (in its thread when it has one). The call gets
   * the handler's `signal` unless `options.signal` is given.
   */
  reply(
    message: string | OutboundMessage,
    options?: { readonly signal?: AbortSignal },
  ): Promise<PostedMessage>;
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
