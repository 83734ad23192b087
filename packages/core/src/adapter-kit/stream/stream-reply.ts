import type { PostedMessage, RuntimeHandle } from '../../adapter/adapter.js';
import { StreamInterruptedError, StreamUnfinishedError } from '../../errors.js';
import { eventRef, type RtEvent } from '../../event/event.js';
import { type RunStreamOptions, runStream } from './run-stream.js';
import type { TextSource } from './source.js';
import type { StreamWriter } from './writer.js';

/** What an adapter's `streamReply` hands the kit. */
export interface StreamReplyRun {
  /** For the `stream_finished` observation; `undefined` before the adapter was attached. */
  readonly runtime: Pick<RuntimeHandle, 'observe'> | undefined;
  readonly adapter: string;
  readonly event: RtEvent;
  readonly writer: StreamWriter;
}

/**
 * Runs one streamed reply for an adapter's `StreamReplier.streamReply`: `runStream` into
 * `run.writer`, one `stream_finished` observation (path, status, writes), then the answer a
 * handler's `ctx.stream` gives. Resolves where the reply landed when the source was shown whole.
 * Rejects with `StreamInterruptedError` (cause: the signal's reason) after the interrupted marker
 * was written; with the source's own error after the error marker (so the handler's outcome is
 * `failed`); with the writer's error when the platform refused; with `StreamUnfinishedError` when
 * the end did not land within `finishTimeoutMs`.
 */
export async function streamReplyWith(
  run: StreamReplyRun,
  source: TextSource,
  options: RunStreamOptions,
): Promise<PostedMessage> {
  const startedAt = Date.now();
  const result = await runStream(source, run.writer, options);
  const at = Date.now();
  run.runtime?.observe({
    type: 'stream_finished',
    at,
    event: eventRef(run.event),
    adapter: run.adapter,
    path: run.writer.path,
    status: result.status,
    chars: result.chars,
    writes: result.writes,
    rateLimited: result.rateLimited,
    durationMs: at - startedAt,
    ...(result.error !== undefined ? { error: result.error } : {}),
  });
  switch (result.status) {
    case 'completed':
      return result.posted as PostedMessage;
    case 'interrupted':
      throw new StreamInterruptedError(result.posted, { cause: result.error });
    case 'unfinished':
      throw result.error instanceof StreamUnfinishedError
        ? result.error
        : new StreamUnfinishedError('stream not ended', { cause: result.error });
    default:
      throw result.error;
  }
}
