import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DetachTimeoutError, StreamRateLimitedError } from '../../errors.js';
import {
  type RecordedStreamCall,
  RecordingStreamWriter,
  untilAborted,
} from '../../test-support/recording-stream-writer.js';
import { DEFAULT_STREAM_OPTIONS, resolveStreamOptions } from './options.js';
import { runStream, type StreamResult } from './run-stream.js';

const LIMITS = { minIntervalMs: 1000, maxCharsPerWrite: 4000 } as const;

/** Runs the fake clock until `promise` settles. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 10_000 && !done; i += 1) await vi.advanceTimersByTimeAsync(100);
  return promise;
}

function gaps(calls: readonly RecordedStreamCall[]): number[] {
  return calls.slice(1).map((call, i) => call.at - (calls[i] as RecordedStreamCall).at);
}

async function* chunks(...values: string[]): AsyncGenerator<string> {
  yield* values;
}

/** An iterator whose chunks the test hands out, with `return()` recorded. */
function manualSource() {
  const waiting: ((result: IteratorResult<string>) => void)[] = [];
  const returned = vi.fn(async () => ({ done: true as const, value: undefined }));
  const iterator: AsyncIterator<string> = {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    return: returned,
  };
  return {
    source: { [Symbol.asyncIterator]: () => iterator },
    returned,
    push(value: string) {
      waiting.shift()?.({ done: false, value });
    },
  };
}

describe('runStream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes 10,000 small chunks within the rate budget, and the text is their concatenation', async () => {
    const writer = new RecordingStreamWriter(LIMITS);
    let pulled = 0;
    let maxAhead = 0;
    async function* source() {
      for (let i = 0; i < 10_000; i += 1) {
        pulled += 2;
        maxAhead = Math.max(maxAhead, pulled - writer.text.length);
        yield `${i % 10}${i % 7}`;
        if (i % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    const expected = Array.from({ length: 10_000 }, (_, i) => `${i % 10}${i % 7}`).join('');
    const started = Date.now();
    const result = await settle(
      runStream(source(), writer, { signal: new AbortController().signal }),
    );

    expect(result.status).toBe('completed');
    expect(writer.text).toBe(expected);
    expect(result.chars).toBe(20_000);
    const writes = writer.writes;
    expect(writes.length).toBe(result.writes);
    for (const gap of gaps(writes)) expect(gap).toBeGreaterThanOrEqual(LIMITS.minIntervalMs);
    // Never more than one call per interval over the stream's life.
    const elapsed = (writes.at(-1) as RecordedStreamCall).at - started;
    expect(writes.length).toBeLessThanOrEqual(Math.floor(elapsed / LIMITS.minIntervalMs) + 1);
    for (const call of writes)
      expect(call.delta.length).toBeLessThanOrEqual(LIMITS.maxCharsPerWrite);
    // Backpressure: the source is never read further ahead than the buffer bound and one chunk.
    expect(maxAhead).toBeLessThanOrEqual(DEFAULT_STREAM_OPTIONS.maxBufferChars + 2);
  });

  it('flushes a small buffer after flushIntervalMs, and a full one at once', async () => {
    const writer = new RecordingStreamWriter({ minIntervalMs: 10, maxCharsPerWrite: 4000 });
    const { source, push } = manualSource();
    const run = runStream(source, writer, {
      signal: new AbortController().signal,
      flushChars: 5,
      flushIntervalMs: 300,
    });
    await vi.advanceTimersByTimeAsync(0);
    push('ab');
    await vi.advanceTimersByTimeAsync(299);
    expect(writer.writes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(writer.writes.map((call) => call.delta)).toEqual(['ab']);
    push('cdefg');
    await vi.advanceTimersByTimeAsync(10);
    expect(writer.writes.map((call) => call.delta)).toEqual(['ab', 'cdefg']);
    void run;
  });

  it('on abort calls the iterator return(), writes what it has and the interrupted marker', async () => {
    const writer = new RecordingStreamWriter(LIMITS);
    const { source, returned, push } = manualSource();
    const controller = new AbortController();
    const run = runStream(source, writer, {
      signal: controller.signal,
      interruptedMarker: ' [cut]',
    });
    await vi.advanceTimersByTimeAsync(0);
    push('Hello ');
    await vi.advanceTimersByTimeAsync(2000);
    push('wor');
    await vi.advanceTimersByTimeAsync(10);
    const reason = new DetachTimeoutError(30_000);
    controller.abort(reason);
    const result = await settle(run);

    expect(returned).toHaveBeenCalledTimes(1);
    expect(result.status).toBe('interrupted');
    expect(result.error).toBe(reason);
    expect(writer.text).toBe('Hello wor [cut]');
    expect(writer.writes.at(-1)?.end).toEqual({ kind: 'interrupted', marker: ' [cut]' });
  });

  it('when the source throws, ends the reply with the error marker and reports the error', async () => {
    const writer = new RecordingStreamWriter(LIMITS);
    const failure = new Error('model failed');
    async function* source() {
      yield 'partial ';
      await new Promise((resolve) => setTimeout(resolve, 1500));
      throw failure;
    }
    const result = await settle(
      runStream(source(), writer, { signal: new AbortController().signal }),
    );

    expect(result.status).toBe('failed');
    expect(result.error).toBe(failure);
    expect(writer.text).toBe(`partial ${DEFAULT_STREAM_OPTIONS.errorMarker}`);
  });

  it('a source that never yields: waiting renewed until the signal ends it with the marker', async () => {
    const writer = new RecordingStreamWriter({ ...LIMITS, waitingRenewMs: 8000 });
    const { source, returned } = manualSource();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DetachTimeoutError(30_000)), 30_000);
    const started = Date.now();
    const result = await settle(runStream(source, writer, { signal: controller.signal }));

    expect(result.status).toBe('interrupted');
    expect(returned).toHaveBeenCalledTimes(1);
    const waiting = writer.calls.filter((call) => call.kind === 'waiting');
    expect(waiting.map((call) => call.at - started)).toEqual([0, 8000, 16_000, 24_000]);
    expect(writer.writes).toHaveLength(1);
    expect(writer.text).toBe(DEFAULT_STREAM_OPTIONS.interruptedMarker);
  });

  it('honours a rate-limit answer: waits Retry-After, rewrites the same text, loses nothing', async () => {
    const writer = new RecordingStreamWriter(LIMITS);
    let refused = 0;
    writer.answer = (call) => {
      if (call.kind !== 'waiting' && refused < 3) {
        refused += 1;
        throw new StreamRateLimitedError(5000);
      }
    };
    async function* source() {
      for (let i = 0; i < 50; i += 1) {
        yield `chunk ${i}. `;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const result = await settle(
      runStream(source(), writer, { signal: new AbortController().signal }),
    );

    expect(result.status).toBe('completed');
    expect(result.rateLimited).toBe(3);
    expect(writer.text).toBe(Array.from({ length: 50 }, (_, i) => `chunk ${i}. `).join(''));
    const writes = writer.writes;
    for (const [i, gap] of gaps(writes).entries()) {
      expect(gap).toBeGreaterThanOrEqual(i < 3 ? 5000 : LIMITS.minIntervalMs);
    }
  });

  it('never gives a write more than the writer has room for', async () => {
    let used = 0;
    const writer = new RecordingStreamWriter({ minIntervalMs: 100, maxCharsPerWrite: 4000 }, () =>
      used % 50 === 0 ? 50 : 50 - (used % 50),
    );
    writer.answer = (call) => {
      used += call.delta.length;
    };
    const text = 'x'.repeat(333);
    const result = await settle(
      runStream(chunks(text), writer, { signal: new AbortController().signal }),
    );
    expect(result.status).toBe('completed');
    expect(writer.text).toBe(text);
    for (const call of writer.writes) expect(call.delta.length).toBeLessThanOrEqual(50);
  });

  it('is unfinished when the end does not land within finishTimeoutMs of the abort', async () => {
    const writer = new RecordingStreamWriter(LIMITS);
    writer.answer = (call, signal) => (call.kind === 'finish' ? untilAborted(signal) : undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DetachTimeoutError(5000)), 5000);
    const result: StreamResult = await settle(
      runStream(chunks('all of it'), writer, { signal: controller.signal, finishTimeoutMs: 3000 }),
    );
    expect(result.status).toBe('unfinished');
    expect((result.error as { code?: string }).code).toBe('RT_STREAM_UNFINISHED');
  });

  it('cancels a ReadableStream source at the abort, settling its pending read', async () => {
    const cancel = vi.fn();
    const source = new ReadableStream<string>({
      start(controller) {
        controller.enqueue('first');
      },
      cancel,
    });
    const writer = new RecordingStreamWriter(LIMITS);
    const controller = new AbortController();
    const run = runStream(source, writer, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(1500);
    controller.abort(new Error('lease lost'));
    const result = await settle(run);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(result.status).toBe('interrupted');
    expect(writer.text).toBe(`first${DEFAULT_STREAM_OPTIONS.interruptedMarker}`);
  });

  it('posts emptyText when the source ends without text', async () => {
    const writer = new RecordingStreamWriter(LIMITS);
    const result = await settle(
      runStream(chunks(), writer, { signal: new AbortController().signal }),
    );
    expect(result.status).toBe('completed');
    expect(writer.text).toBe(DEFAULT_STREAM_OPTIONS.emptyText);
  });

  it('removes its abort listener and leaves no timer behind once it ended', async () => {
    const writer = new RecordingStreamWriter({ ...LIMITS, waitingRenewMs: 500 });
    const controller = new AbortController();
    const result = await settle(runStream(chunks('a', 'b'), writer, { signal: controller.signal }));
    expect(result.status).toBe('completed');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a writer error ends the stream as failed and cancels the source', async () => {
    const writer = new RecordingStreamWriter(LIMITS);
    const refusal = new Error('channel_not_found');
    writer.answer = (call) => {
      if (call.kind === 'write') throw refusal;
    };
    const { source, returned, push } = manualSource();
    const run = runStream(source, writer, { signal: new AbortController().signal, flushChars: 1 });
    await vi.advanceTimersByTimeAsync(0);
    push('x');
    const result = await settle(run);
    expect(result).toMatchObject({ status: 'failed', error: refusal });
    expect(returned).toHaveBeenCalledTimes(1);
  });
});

describe('resolveStreamOptions', () => {
  it('names the option it rejects', () => {
    expect(() => resolveStreamOptions({ flushChars: 0 })).toThrow(/flushChars/);
    expect(() => resolveStreamOptions({ interruptedMarker: ' ' })).toThrow(TypeError);
    expect(() => resolveStreamOptions({ maxBufferChars: 10, flushChars: 20 })).toThrow(
      /maxBufferChars/,
    );
  });

  it('keeps the defaults frozen', () => {
    expect(Object.isFrozen(DEFAULT_STREAM_OPTIONS)).toBe(true);
    expect(resolveStreamOptions({})).toEqual(DEFAULT_STREAM_OPTIONS);
  });
});
