import type { StreamOptions } from '../adapter-kit/stream/options.js';
import type { TextSource } from '../adapter-kit/stream/source.js';
import type { RtEvent } from '../event/event.js';
import type { Adapter, PostedMessage } from './adapter.js';

/** Options of `ctx.stream`: the buffering options, and a signal other than the handler's. */
export interface StreamReplyOptions extends StreamOptions {
  /** Ends the stream (interrupted marker). Default: the handler's `ctx.signal`. */
  readonly signal?: AbortSignal;
}

/**
 * Optional capability: posts a reply to an event that grows as `source` yields text, within the
 * platform's rate limits (adapters run the adapter kit's `streamReplyWith` over their
 * `StreamWriter`). The contract of its answer is `ctx.stream`'s.
 */
export interface StreamReplier {
  streamReply(
    event: RtEvent,
    source: TextSource,
    options: StreamOptions & { readonly signal: AbortSignal },
  ): Promise<PostedMessage>;
}

/** True when `adapter` offers the optional `StreamReplier` capability. */
export function isStreamReplier(adapter: Adapter): adapter is Adapter & StreamReplier {
  return typeof (adapter as Partial<StreamReplier>).streamReply === 'function';
}
