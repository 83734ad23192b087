import { type LanguageModel, simulateReadableStream, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/** Options of `mockTextStream`. */
export interface MockTextStreamOptions {
  /** Milliseconds between two streamed parts. Default 5. */
  readonly chunkDelayInMs?: number | undefined;
  /** Passed to `streamText`: aborting it cancels the model's "request" and ends the stream. */
  readonly abortSignal?: AbortSignal | undefined;
}

/** What `mockTextStream` returns. */
export interface MockTextStream {
  /** `streamText(...).textStream`: what a handler hands `ctx.stream`. */
  readonly textStream: AsyncIterable<string> & ReadableStream<string>;
  /** The AI SDK's mock model behind it (its `doStreamCalls` record each call). */
  readonly model: MockLanguageModelV4;
}

/**
 * A streamed AI reply without a provider or a network: the AI SDK's own offline mock model
 * (`MockLanguageModelV4` from `ai/test`) streaming `deltas` as one text part, a part every
 * `chunkDelayInMs`, then a `stop` finish, and the `textStream` of `streamText` over it. The
 * text streamed is `deltas.join('')`. Needs the optional peer `ai` 7.
 */
export function mockTextStream(
  deltas: readonly string[],
  options: MockTextStreamOptions = {},
): MockTextStream {
  const model = new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'text-start' as const, id: 't1' },
          ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
          { type: 'text-end' as const, id: 't1' },
          {
            type: 'finish' as const,
            finishReason: { unified: 'stop' as const, raw: undefined },
            usage: {
              inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: deltas.length, text: deltas.length, reasoning: 0 },
            },
          },
        ],
        chunkDelayInMs: options.chunkDelayInMs ?? 5,
      }),
    }),
  });
  const result = streamText({
    model: model as LanguageModel,
    prompt: 'Say hello',
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  });
  return { textStream: result.textStream, model };
}
