import { createRuntime } from '@rt/core';
import { describe, expect, it } from 'vitest';
import { createTestAdapter } from '../adapter/test-adapter.js';
import { markOnlyState } from '../support/mark-only-state.js';
import { mockTextStream } from './mock-text-stream.js';

describe('mockTextStream', () => {
  it('streams the deltas in order, once, through the mock model', async () => {
    const { textStream, model } = mockTextStream(['Hel', 'lo', ' there'], { chunkDelayInMs: 0 });
    const parts: string[] = [];
    for await (const part of textStream) parts.push(part);
    expect(parts.join('')).toBe('Hello there');
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('ends early when its abort signal fires, without the rest of the text', async () => {
    const controller = new AbortController();
    const { textStream } = mockTextStream(['a', 'b', 'c', 'd'], {
      chunkDelayInMs: 20,
      abortSignal: controller.signal,
    });
    const parts: string[] = [];
    for await (const part of textStream) {
      parts.push(part);
      controller.abort();
    }
    expect(parts.join('')).not.toBe('abcd');
    expect(parts.length).toBeGreaterThanOrEqual(1);
  });

  it('is a source ctx.stream shows whole, as the README says', async () => {
    const adapter = createTestAdapter();
    const runtime = createRuntime({ state: markOnlyState(), adapters: [adapter] });
    runtime.onMention(async (ctx) => {
      const { textStream } = mockTextStream(['Hello', ', ', 'world'], { abortSignal: ctx.signal });
      await ctx.stream(textStream);
    });
    await adapter.mention('hi');
    await adapter.settled();
    expect(adapter.posted.map((post) => post.text)).toEqual(['Hello, world']);
    await runtime.shutdown();
  });
});
