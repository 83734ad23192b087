/** What a streamed reply reads: the AI SDK's `textStream` is both. */
export type TextSource = AsyncIterable<string> | ReadableStream<string>;

/**
 * A pull handle over a source: `next()` reads one chunk, `cancel()` stops the source (the
 * iterator's `return()`, or the stream reader's `cancel()`, which also settles a pending read).
 * `cancel` never waits for the source: a generator stuck in an `await` cannot stop the stream.
 */
export interface TextPull {
  next(): Promise<IteratorResult<string>>;
  cancel(reason: unknown): void;
}

function isReadableStream(source: TextSource): source is ReadableStream<string> {
  return typeof (source as ReadableStream<string>).getReader === 'function';
}

/** Opens `source` for pulling; throws `TypeError` when it is neither kind. */
export function openSource(source: TextSource): TextPull {
  if (isReadableStream(source)) {
    const reader = source.getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<string>>,
      cancel: (reason) => {
        reader.cancel(reason).catch(() => {});
      },
    };
  }
  if (source === null || typeof source !== 'object' || !(Symbol.asyncIterator in source)) {
    throw new TypeError('source must be an AsyncIterable<string> or a ReadableStream<string>');
  }
  const iterator = source[Symbol.asyncIterator]();
  return {
    next: () => iterator.next(),
    cancel: () => {
      try {
        const returned = iterator.return?.();
        if (returned !== undefined) Promise.resolve(returned).catch(() => {});
      } catch {
        // A throwing return() must not stop the reply from ending.
      }
    },
  };
}
