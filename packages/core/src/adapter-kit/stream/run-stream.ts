import type { PostedMessage } from '../../adapter/adapter.js';
import { hasErrorCode, StreamRateLimitedError, StreamUnfinishedError } from '../../errors.js';
import { delay } from '../../util/signals.js';
import { resolveStreamOptions, type StreamOptions } from './options.js';
import { openSource, type TextPull, type TextSource } from './source.js';
import type { StreamEnd, StreamWriter } from './writer.js';

/** Options of one `runStream`: the buffering options and the signal that ends it. */
export interface RunStreamOptions extends StreamOptions {
  /** Aborts the stream: it stops pulling, writes what it has plus `interruptedMarker`. */
  readonly signal: AbortSignal;
}

/** How a stream ended. */
export type StreamStatus = 'completed' | 'interrupted' | 'failed' | 'unfinished';

/** What `runStream` reports. */
export interface StreamResult {
  /**
   * `completed`: the whole source is shown. `interrupted`: the signal aborted, the reply ends with
   * the interrupted marker. `failed`: the source threw (the reply ends with the error marker) or
   * the writer failed. `unfinished`: the final writes did not land within `finishTimeoutMs`.
   */
  readonly status: StreamStatus;
  /** Where the reply's last message landed; `undefined` when no write ever landed. */
  readonly posted: PostedMessage | undefined;
  /** Characters read from the source. */
  readonly chars: number;
  /** Writer calls (`write` and `finish`), rate-limited attempts included. */
  readonly writes: number;
  /** Writer calls the platform answered with its rate limit. */
  readonly rateLimited: number;
  /** The abort reason, the source's or the writer's error; absent when `completed`. */
  readonly error?: unknown;
}

type Step =
  | { readonly kind: 'chunk'; readonly value: string }
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'abort' }
  | { readonly kind: 'timer' };

const TIMER: Step = { kind: 'timer' };

function pullStep(pull: TextPull): Promise<Step> {
  return pull.next().then(
    (result): Step =>
      result.done
        ? { kind: 'done' }
        : {
            kind: 'chunk',
            value: typeof result.value === 'string' ? result.value : String(result.value),
          },
    (error: unknown): Step => ({ kind: 'error', error }),
  );
}

/**
 * Streams `source` into `writer`: the flush scheduler every platform shares. Text is buffered and
 * written when `flushChars` are waiting or `flushIntervalMs` after the oldest unwritten text
 * arrived, never sooner than the writer's `minIntervalMs` after the previous call, never more than
 * its `maxCharsPerWrite` (or `room()`) per call, one call at a time. While the buffer holds
 * `maxBufferChars` the source is not pulled (backpressure). A `StreamRateLimitedError` from the
 * writer delays the next call by its `retryAfterMs` (at least `minIntervalMs`) and the same text
 * is written again: no text is lost or written twice.
 *
 * Until the first write, the writer's `waiting` signal is shown (renewed every `waitingRenewMs`).
 * When `signal` aborts, the source is cancelled at once (its iterator's `return()`, not awaited),
 * the call in flight may finish, and the buffered text is written with `interruptedMarker`. When
 * the source throws, the text is ended with `errorMarker`. Once the signal aborted, the remaining
 * writes get `finishTimeoutMs`; past it the result is `unfinished`. Before that, the rest of a
 * finished source is written at the writer's pace however long its rate limits take. Never
 * rejects: the result says how it ended.
 */
export async function runStream(
  source: TextSource,
  writer: StreamWriter,
  options: RunStreamOptions,
): Promise<StreamResult> {
  const { signal } = options;
  const opts = resolveStreamOptions(options);
  const pull = openSource(source);
  // Bounds writer calls: never cut before the final phase, then at its deadline.
  const calls = new AbortController();
  let finishTimer: ReturnType<typeof setTimeout> | undefined;
  const startFinishClock = () => {
    if (finishTimer !== undefined) return;
    finishTimer = setTimeout(() => {
      calls.abort(
        new StreamUnfinishedError(
          `stream not ended within finishTimeoutMs (${opts.finishTimeoutMs} ms)`,
        ),
      );
    }, opts.finishTimeoutMs);
  };

  let buffer = '';
  let bufferedSince = 0;
  let lastCallAt = Number.NEGATIVE_INFINITY;
  let notBefore = 0;
  let started = false;
  let posted: PostedMessage | undefined;
  let chars = 0;
  let writes = 0;
  let rateLimited = 0;

  // The writer's limits are read at each use: a writer may change path (and budget) mid-stream.
  const room = () => {
    const most = writer.limits.maxCharsPerWrite;
    return Math.max(1, Math.min(most, writer.room?.() ?? most));
  };
  const earliestCall = () => Math.max(lastCallAt + writer.limits.minIntervalMs, notBefore);

  // Waiting signal until the first write; renewed before it lapses.
  let waitingTimer: ReturnType<typeof setTimeout> | undefined;
  const showWaiting = () => {
    if (started || signal.aborted || writer.waiting === undefined) return;
    writer.waiting(signal).catch(() => {});
    const renewMs = writer.limits.waitingRenewMs;
    if (renewMs !== undefined) waitingTimer = setTimeout(showWaiting, renewMs);
  };
  const stopWaiting = () => {
    if (waitingTimer !== undefined) clearTimeout(waitingTimer);
    waitingTimer = undefined;
  };

  /** One writer call under the rate budget; false when rate-limited (retry later). */
  async function call<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
    lastCallAt = Date.now();
    writes += 1;
    try {
      return { ok: true, value: await run() };
    } catch (error) {
      if (
        error instanceof StreamRateLimitedError ||
        hasErrorCode(error, 'RT_STREAM_RATE_LIMITED')
      ) {
        rateLimited += 1;
        const after = (error as StreamRateLimitedError).retryAfterMs;
        notBefore = Date.now() + Math.max(after, writer.limits.minIntervalMs);
        return { ok: false };
      }
      throw error;
    }
  }

  async function writeSome(): Promise<void> {
    const slice = buffer.slice(0, room());
    stopWaiting();
    const done = await call(() => writer.write(slice, calls.signal));
    if (!done.ok) return;
    started = true;
    posted = done.value;
    buffer = buffer.slice(slice.length);
    bufferedSince = Date.now();
  }

  let abortStep: ((step: Step) => void) | undefined;
  const aborted = new Promise<Step>((resolve) => {
    abortStep = resolve;
  });
  const onAbort = () => {
    startFinishClock();
    abortStep?.({ kind: 'abort' });
  };
  signal.addEventListener('abort', onAbort, { once: true });

  let end: StreamEnd = { kind: 'completed' };
  let error: unknown;
  try {
    if (signal.aborted) onAbort();
    else showWaiting();
    let pending: Promise<Step> | undefined;
    // Pull and write until the source ends, throws, or the signal aborts.
    for (;;) {
      if (signal.aborted) {
        end = { kind: 'interrupted', marker: opts.interruptedMarker };
        error = signal.reason;
        pull.cancel(signal.reason);
        break;
      }
      if (pending === undefined && buffer.length < opts.maxBufferChars) pending = pullStep(pull);
      const now = Date.now();
      let due: number | undefined;
      if (buffer.length > 0) {
        const wanted =
          buffer.length >= opts.flushChars ? now : bufferedSince + opts.flushIntervalMs;
        due = Math.max(earliestCall(), wanted);
      }
      if (due !== undefined && due <= now) {
        await writeSome();
        continue;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waits: Promise<Step>[] = [aborted];
      if (pending !== undefined) waits.push(pending);
      if (due !== undefined) {
        waits.push(
          new Promise<Step>((resolve) => {
            timer = setTimeout(() => resolve(TIMER), due - now);
          }),
        );
      }
      const step = await Promise.race(waits);
      if (timer !== undefined) clearTimeout(timer);
      if (step.kind === 'timer' || step.kind === 'abort') continue;
      pending = undefined;
      if (step.kind === 'chunk') {
        if (step.value.length === 0) continue;
        if (buffer.length === 0) bufferedSince = Date.now();
        buffer += step.value;
        chars += step.value.length;
        continue;
      }
      if (step.kind === 'error') {
        end = { kind: 'failed', marker: opts.errorMarker };
        error = step.error;
      }
      break;
    }
    stopWaiting();
    // Final phase: the rest of the buffer, then the end (with its marker), within the budget.
    if (!started && buffer.length === 0 && end.kind === 'completed') buffer = opts.emptyText;
    for (;;) {
      const wait = earliestCall() - Date.now();
      if (wait > 0) await delay(wait, calls.signal);
      if (signal.aborted && end.kind === 'completed') {
        // Aborted before the whole text was shown: it ends with the marker after all.
        end = { kind: 'interrupted', marker: opts.interruptedMarker };
        error = signal.reason;
      }
      const marker = end.kind === 'completed' ? 0 : end.marker.length;
      const fits = room();
      if (buffer.length > 0 && buffer.length + marker > fits) {
        await writeSome();
        continue;
      }
      const delta = buffer;
      const finished = await call(() => writer.finish(delta, end, calls.signal));
      if (!finished.ok) continue;
      posted = finished.value;
      break;
    }
    const status = end.kind === 'completed' ? 'completed' : end.kind;
    return {
      status,
      posted,
      chars,
      writes,
      rateLimited,
      ...(status === 'completed' ? {} : { error }),
    };
  } catch (thrown) {
    // A writer error (not a rate limit), or the final phase's deadline.
    pull.cancel(thrown);
    const unfinished = calls.signal.aborted;
    return {
      status: unfinished ? 'unfinished' : 'failed',
      posted,
      chars,
      writes,
      rateLimited,
      error: unfinished ? calls.signal.reason : thrown,
    };
  } finally {
    stopWaiting();
    if (finishTimer !== undefined) clearTimeout(finishTimer);
    signal.removeEventListener('abort', onAbort);
  }
}
