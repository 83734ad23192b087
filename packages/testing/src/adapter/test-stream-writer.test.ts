import { createRuntime, type Observation } from '@rt/core';
import { describe, expect, it } from 'vitest';
import { markOnlyState } from '../support/mark-only-state.js';
import { createTestAdapter } from './test-adapter.js';

async function* words(...values: string[]): AsyncGenerator<string> {
  for (const value of values) {
    yield value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('test adapter streams', () => {
  it('records a streamed reply whose text is the whole source', async () => {
    const adapter = createTestAdapter();
    const runtime = createRuntime({ state: markOnlyState(), adapters: [adapter] });
    runtime.onMention((ctx) => ctx.stream(words('Hello', ', ', 'world'), { flushChars: 1 }));
    await adapter.mention('hi', { thread: 'th' });
    await adapter.settled();
    expect(adapter.posted.map((p) => [p.text, p.thread])).toEqual([['Hello, world', 'th']]);
  });

  it('ends an interrupted reply with the marker and reports it', async () => {
    const adapter = createTestAdapter();
    const observations: Observation[] = [];
    const runtime = createRuntime({
      state: markOnlyState(),
      adapters: [adapter],
      detachTimeoutMs: 100,
      observers: [(o) => void observations.push(o)],
    });
    const stalled = {
      [Symbol.asyncIterator]: (): AsyncIterator<string> => ({
        next: () => new Promise(() => {}),
        return: async () => ({ done: true, value: undefined }),
      }),
    };
    runtime.onMention((ctx) => ctx.stream(stalled));
    await adapter.mention('hi');
    await adapter.settled();
    expect(adapter.posted.map((p) => p.text)).toEqual(['\n\n_(interrupted)_']);
    expect(observations.find((o) => o.type === 'stream_finished')).toMatchObject({
      status: 'interrupted',
      path: 'test',
    });
    expect(observations.find((o) => o.type === 'dispatch_finished')).toMatchObject({
      outcome: 'timed-out',
    });
  });
});
