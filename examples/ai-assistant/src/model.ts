/**
 * The language model the assistant streams from: a real provider when its key is set
 * (`OPENAI_API_KEY`, through `@ai-sdk/openai`), and otherwise the AI SDK's own mock model
 * (`MockLanguageModelV4` from `ai/test`), offline and deterministic. Any other AI SDK provider
 * works the same way: `createBot` takes a `LanguageModel`.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { type LanguageModel, simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

/** What `createMockModel` needs. */
export interface MockModelOptions {
  /** Milliseconds between two streamed words. Default 20. */
  readonly chunkDelayMs?: number;
  /**
   * Holds the `index`th answer (from 0) before its finish part until the returned promise
   * settles (`undefined`: no hold): its text is streamed, but the source does not end, the way a
   * model still thinking keeps the reply open. For the offline run and tests.
   */
  readonly holdFinish?: (index: number) => Promise<void> | undefined;
}

/** Frozen defaults of `MockModelOptions`. */
export const MOCK_MODEL_DEFAULTS = Object.freeze({ chunkDelayMs: 20 });

/** The offline model and every answer it streamed, in order (what a test compares with). */
export interface MockModel {
  readonly model: LanguageModel;
  readonly answers: readonly string[];
  /** The system prompt of each call, in the same order (empty when it had none). */
  readonly systems: readonly string[];
  /** Resolves with the `index`th answer (from 0) once the model was called for it. */
  called(index: number): Promise<string>;
}

/** One message of a model call's prompt, as far as the mock reads it. */
interface PromptMessage {
  readonly role: string;
  readonly content: unknown;
}

/** The system prompt of a call's prompt. */
function systemText(prompt: readonly PromptMessage[]): string {
  return prompt
    .filter((message) => message.role === 'system' && typeof message.content === 'string')
    .map((message) => message.content)
    .join('\n');
}

/** The text of the last user message of a call's prompt. */
function lastUserText(prompt: readonly PromptMessage[]): string {
  for (let i = prompt.length - 1; i >= 0; i -= 1) {
    const message = prompt[i];
    if (message?.role !== 'user' || !Array.isArray(message.content)) continue;
    return message.content
      .map((part: { type?: string; text?: string }) =>
        part.type === 'text' ? (part.text ?? '') : '',
      )
      .join('');
  }
  return '';
}

/**
 * The deterministic answer of the mock model to a user prompt: it repeats what it was asked, so
 * a reader of the transcript sees what the handler put in its prompt (messages skipped included).
 */
export function mockAnswer(prompt: string): string {
  return `(mock model) You asked me: ${prompt.replace(/\s+/g, ' ').trim()}`;
}

/** Splits `text` into word chunks whose concatenation is `text`. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * The AI SDK's mock model streaming `mockAnswer(prompt)` a word at a time. Throws `RangeError`
 * for a negative or non-finite `chunkDelayMs`.
 */
export function createMockModel(options: MockModelOptions = {}): MockModel {
  const chunkDelayMs = options.chunkDelayMs ?? MOCK_MODEL_DEFAULTS.chunkDelayMs;
  if (!Number.isFinite(chunkDelayMs) || chunkDelayMs < 0) {
    throw new RangeError(`chunkDelayMs must be a finite number >= 0, got ${chunkDelayMs}`);
  }
  const answers: string[] = [];
  const systems: string[] = [];
  const waiters = new Map<number, Array<(answer: string) => void>>();
  const called = (index: number) =>
    new Promise<string>((resolve) => {
      const answer = answers[index];
      if (answer !== undefined) {
        resolve(answer);
        return;
      }
      waiters.set(index, [...(waiters.get(index) ?? []), resolve]);
    });
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const answer = mockAnswer(lastUserText(prompt));
      systems.push(systemText(prompt));
      const index = answers.push(answer) - 1;
      for (const wake of waiters.get(index) ?? []) wake(answer);
      waiters.delete(index);
      const hold = options.holdFinish?.(index);
      const deltas = words(answer);
      const stream = simulateReadableStream({
        chunks: [
          { type: 'text-start' as const, id: 't1' },
          ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't1', delta })),
          { type: 'text-end' as const, id: 't1' },
          {
            type: 'finish' as const,
            finishReason: { unified: 'stop' as const, raw: undefined },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: deltas.length, text: deltas.length, reasoning: 0 },
            },
          },
        ],
        chunkDelayInMs: chunkDelayMs,
      });
      if (hold === undefined) return { stream };
      return {
        stream: stream.pipeThrough(
          new TransformStream({
            async transform(part, controller) {
              if (part.type === 'finish') await hold;
              controller.enqueue(part);
            },
          }),
        ),
      };
    },
  });
  return { model: model as LanguageModel, answers, systems, called };
}

/** What `openAiModel` needs. */
export interface OpenAiModelOptions {
  readonly apiKey: string;
  /** Default `gpt-4o-mini`. */
  readonly modelId?: string;
  /** Another OpenAI-compatible endpoint; default OpenAI's. */
  readonly baseURL?: string;
}

/**
 * An OpenAI model through `@ai-sdk/openai`, on the Chat Completions API (`/chat/completions`):
 * the one OpenAI-compatible endpoints (`baseURL`) implement too.
 */
export function openAiModel(options: OpenAiModelOptions): LanguageModel {
  const provider = createOpenAI({
    apiKey: options.apiKey,
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
  });
  return provider.chat(options.modelId ?? 'gpt-4o-mini');
}
