import type { Adapter, PostedMessage } from '../adapter/adapter.js';
import { isStreamReplier, type StreamReplyOptions } from '../adapter/stream-replier.js';
import type { TextSource } from '../adapter-kit/stream/source.js';
import { StreamUnsupportedError } from '../errors.js';
import type { RtEvent } from '../event/event.js';

/**
 * `ctx.stream` of one handler run: the adapter's `streamReply` for `event`, bound to `runSignal`
 * unless `options.signal` is given. Rejects with `StreamUnsupportedError` when the adapter cannot
 * stream, without reading the source. Never throws synchronously: whatever goes wrong is a
 * rejection. A plain function (not a closure built per delivery): the handler context calls it
 * only when a handler streams.
 */
export async function streamFromContext(
  adapter: Adapter,
  event: RtEvent,
  runSignal: AbortSignal,
  source: TextSource,
  options?: StreamReplyOptions,
): Promise<PostedMessage> {
  if (!isStreamReplier(adapter)) throw new StreamUnsupportedError(adapter.name);
  return adapter.streamReply(event, source, { ...options, signal: options?.signal ?? runSignal });
}
