import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PostedMessage } from '../adapter/adapter.js';
import type { StreamReplier } from '../adapter/stream-replier.js';
import type { StreamOptions } from '../adapter-kit/stream/options.js';
import type { TextSource } from '../adapter-kit/stream/source.js';
import { streamReplyWith } from '../adapter-kit/stream/stream-reply.js';
import { StreamInterruptedError, StreamUnsupportedError } from '../errors.js';
import type { RtEvent } from '../event/event.js';
import { RecordingStreamWriter } from '../test-support/recording-stream-writer.js';
import { setup } from '../test-support/setup.js';
import {
  createTestAdapter,
  deferred,
  settledOf,
  type TestAdapter,
  type TestAdapterOptions,
} from '../test-support/test-adapter.js';

/** A test adapter that streams into one RecordingStreamWriter per reply. */
interface StreamingAdapter extends TestAdapter, StreamReplier {
  readonly writers: RecordingStreamWriter[];
}

function streamingAdapter(options: TestAdapterOptions = {}): StreamingAdapter {
  const adapter = createTestAdapter(options);
  const writers: RecordingStreamWriter[] = [];
  const streamReply = (
    event: RtEvent,
    source: TextSource,
    streamOptions: StreamOptions & { readonly signal: AbortSignal },
  ): Promise<PostedMessage> => {
    const writer = new RecordingStreamWriter({ minIntervalMs: 1000, maxCharsPerWrite: 4000 });
    writers.push(writer);
    return streamReplyWith(
      { runtime: adapter.runtime, adapter: adapter.name, event, writer },
      source,
      streamOptions,
    );
  };
  return Object.assign(adapter, { writers, streamReply });
}

/** A source that yields `head` and then never again, recording its `return()`. */
function stalling(head: string) {
  const returned = vi.fn(async () => ({ done: true as const, value: undefined }));
  let first = true;
  const iterator: AsyncIterator<string> = {
    next: () => {
      if (first) {
        first = false;
        return Promise.resolve({ done: false, value: head });
      }
      return new Promise(() => {});
    },
    return: returned,
  };
  return { source: { [Symbol.asyncIterator]: () => iterator }, returned };
}

async function* words(...values: string[]): AsyncGenerator<string> {
  for (const value of values) {
    yield value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('ctx.stream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function streamingSetup(options: Parameters<typeof setup>[0] = {}) {
    const streamer = streamingAdapter({ name: 'streamer' });
    const fixture = setup({ ...options, adapters: [streamer] });
    return { ...fixture, streamer };
  }

  it('resolves with the posted reply once the whole source is shown', async () => {
    const { runtime, streamer, ofType } = streamingSetup();
    let posted: PostedMessage | undefined;
    runtime.onMessage(async (ctx) => {
      posted = await ctx.stream(words('Hello', ', ', 'world'));
    });
    const settled = settledOf(await streamer.send());
    await vi.advanceTimersByTimeAsync(5000);
    expect((await settled).outcome).toBe('completed');
    expect(posted).toEqual({ channel: 'C1', id: 'm1' });
    expect(streamer.writers[0]?.text).toBe('Hello, world');
    expect(ofType('stream_finished')).toMatchObject([
      { status: 'completed', adapter: 'streamer', path: 'recording', chars: 12 },
    ]);
  });

  it('rejects with StreamUnsupportedError on an adapter that cannot stream, reading nothing', async () => {
    const { runtime, adapter } = setup();
    let error: unknown;
    const source = stalling('never read');
    runtime.onMessage(async (ctx) => {
      error = await ctx.stream(source.source).catch((thrown: unknown) => thrown);
    });
    await settledOf(await adapter.send());
    expect(error).toBeInstanceOf(StreamUnsupportedError);
    expect(source.returned).not.toHaveBeenCalled();
  });

  it('a detach timeout interrupts the stream: return() called, marker written, outcome timed-out', async () => {
    const { runtime, streamer, observations } = streamingSetup({ detachTimeoutMs: 10_000 });
    const { source, returned } = stalling('Thinking about it');
    let error: unknown;
    runtime.onMessage(async (ctx) => {
      error = await ctx.stream(source).catch((thrown: unknown) => thrown);
    });
    const settled = settledOf(await streamer.send());
    await vi.advanceTimersByTimeAsync(12_000);
    expect((await settled).outcome).toBe('timed-out');
    expect(returned).toHaveBeenCalledTimes(1);
    expect(streamer.writers[0]?.text).toBe('Thinking about it\n\n_(interrupted)_');
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect((error as StreamInterruptedError).cause).toMatchObject({ code: 'RT_DETACH_TIMEOUT' });
    // The stream's observation comes before the delivery's terminal outcome.
    const types = observations.map((o) => o.type);
    expect(types.indexOf('stream_finished')).toBeLessThan(types.indexOf('dispatch_finished'));
    expect(observations.find((o) => o.type === 'stream_finished')).toMatchObject({
      status: 'interrupted',
    });
  });

  it('a lost lease interrupts the stream with the marker; outcome preempted', async () => {
    const { runtime, streamer, state, ofType } = streamingSetup({ lockTtlMs: 3000 });
    const { source, returned } = stalling('Partial answer');
    runtime.onMessage(async (ctx) => {
      await ctx.stream(source);
    });
    const settled = settledOf(await streamer.send());
    await vi.advanceTimersByTimeAsync(1500);
    state.faults.renewLock = () => false;
    await vi.advanceTimersByTimeAsync(5000);
    expect((await settled).outcome).toBe('preempted');
    expect(returned).toHaveBeenCalledTimes(1);
    expect(streamer.writers[0]?.text).toBe('Partial answer\n\n_(interrupted)_');
    expect(ofType('stream_finished')[0]?.status).toBe('interrupted');
  });

  it('at shutdown a stream in flight gets the grace period, then ends with its marker', async () => {
    const { runtime, streamer, ofType } = streamingSetup();
    const { source, returned } = stalling('Working on it');
    const started = deferred();
    runtime.onMessage(async (ctx) => {
      started.resolve();
      await ctx.stream(source);
    });
    const settled = settledOf(await streamer.send());
    await started.promise;
    const stopping = runtime.shutdown({ graceMs: 2000 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(returned).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    await stopping;
    expect((await settled).outcome).toBe('shutdown');
    expect(returned).toHaveBeenCalledTimes(1);
    expect(streamer.writers[0]?.text).toBe('Working on it\n\n_(interrupted)_');
    expect(ofType('stream_finished')[0]?.status).toBe('interrupted');
  });

  it('a source that throws ends with the error marker and fails the handler with its error', async () => {
    const { runtime, streamer } = streamingSetup();
    const failure = new Error('provider down');
    async function* source() {
      yield 'So far ';
      throw failure;
    }
    runtime.onMessage((ctx) => ctx.stream(source()));
    const settled = settledOf(await streamer.send());
    await vi.advanceTimersByTimeAsync(3000);
    expect(await settled).toMatchObject({ outcome: 'failed', error: failure });
    expect(streamer.writers[0]?.text).toBe('So far \n\n_(error: reply incomplete)_');
  });
});
