import { type LanguageModel, simulateReadableStream, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/**
 * The AI SDK's own offline mock model, streaming `deltas` as one text part (a chunk every
 * `chunkDelayInMs`), and the `textStream` of `streamText` over it: what a bot hands `ctx.stream`.
 * `abortSignal` is passed to `streamText`, so a cancelled stream cancels the "request".
 */
export function mockTextStream(
  deltas: readonly string[],
  options: { chunkDelayInMs?: number; abortSignal?: AbortSignal } = {},
): { textStream: AsyncIterable<string> & ReadableStream<string>; model: MockLanguageModelV4 } {
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
