import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { createMockModel, mockAnswer } from './model.js';

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return chunks;
}

describe('createMockModel', () => {
  it('streams mockAnswer(prompt) a word at a time through streamText', async () => {
    const mock = createMockModel({ chunkDelayMs: 0 });
    const { textStream } = streamText({ model: mock.model, prompt: 'two  words\nhere' });
    const chunks = await collect(textStream);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(mockAnswer('two words here'));
    expect(mock.answers).toEqual([mockAnswer('two words here')]);
    await expect(mock.called(0)).resolves.toBe(mockAnswer('two words here'));
  });

  it('holds the source open before its finish until the hold settles', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const mock = createMockModel({
      chunkDelayMs: 0,
      holdFinish: (i) => (i === 0 ? hold : undefined),
    });
    const { textStream } = streamText({ model: mock.model, prompt: 'hi' });
    const iterator = textStream[Symbol.asyncIterator]();
    let text = '';
    let ended = false;
    const reading = (async () => {
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        text += next.value;
      }
      ended = true;
    })();
    await mock.called(0);
    // All the text arrives, but the source stays open until released.
    await expect.poll(() => text).toBe(mockAnswer('hi'));
    expect(ended).toBe(false);
    release();
    await reading;
    expect(ended).toBe(true);
  });

  it('rejects a bad chunkDelayMs with a RangeError naming it', () => {
    expect(() => createMockModel({ chunkDelayMs: -1 })).toThrow(/chunkDelayMs/);
    expect(() => createMockModel({ chunkDelayMs: Number.NaN })).toThrow(RangeError);
  });
});
