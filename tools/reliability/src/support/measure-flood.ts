import { AdmissionRejectedError, createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';

/** What the flood's handlers hold while they never finish: a pending promise, or a stream. */
export type FloodHandlerKind = 'wait' | 'stream';

/**
 * A source that yields `text` once, then waits until it is cancelled (its `return()`), as a
 * model that stalls mid-answer does.
 */
function stalledSource(text: string): AsyncIterable<string> {
  let sent = false;
  let release: (() => void) | undefined;
  return {
    [Symbol.asyncIterator]: () => ({
      next: (): Promise<IteratorResult<string>> => {
        if (!sent) {
          sent = true;
          return Promise.resolve({ done: false, value: text });
        }
        return new Promise((resolve) => {
          release = () => resolve({ done: true, value: undefined });
        });
      },
      return: async (): Promise<IteratorResult<string>> => {
        release?.();
        return { done: true, value: undefined };
      },
    }),
  };
}

/** Heap and retention figures of a flood far larger than the bound. */
export interface FloodResult {
  readonly sent: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly maxDetached: number;
  readonly peakInFlight: number;
  readonly heapBeforeMb: number;
  readonly heapPeakMb: number;
  readonly heapAfterMb: number;
}

const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10;
};

/**
 * Floods a runtime whose handler never finishes on its own with `sent` unique events carrying a
 * 4 KiB payload each. The bound must cap what is retained: heap growth tracks `maxDetached`, not
 * `sent`. Handlers are released at the end by shutdown. `kind` `stream`: each handler streams a
 * reply whose source yields 2 KiB and then stalls (a stream in flight, its text written), so the
 * streams' buffers and writers count too.
 */
export async function measureFlood(
  sent: number,
  maxDetached: number,
  kind: FloodHandlerKind = 'wait',
): Promise<FloodResult> {
  const state = createMemoryState();
  const adapter = createTestAdapter();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    maxDetached,
    concurrency: 'concurrent',
  });
  runtime.onMessage((ctx) =>
    kind === 'stream'
      ? ctx.stream(stalledSource('y'.repeat(2048))).then(
          () => undefined,
          () => undefined,
        )
      : new Promise((resolve) => ctx.signal.addEventListener('abort', resolve)),
  );
  const heapBeforeMb = heapMb();
  let rejected = 0;
  let peakInFlight = 0;
  let heapPeakMb = heapBeforeMb;
  for (let i = 0; i < sent; i += 1) {
    try {
      await adapter.send({ payload: { blob: 'x'.repeat(4096), i } });
    } catch (error) {
      if (!(error instanceof AdmissionRejectedError)) throw error;
      rejected += 1;
    }
    if (i % 5000 === 0) {
      peakInFlight = Math.max(peakInFlight, runtime.stats().detachedInFlight);
      heapPeakMb = Math.max(heapPeakMb, heapMb());
    }
  }
  peakInFlight = Math.max(peakInFlight, runtime.stats().detachedInFlight);
  heapPeakMb = Math.max(heapPeakMb, heapMb());
  const accepted = runtime.stats().accepted;
  await runtime.shutdown({ graceMs: 0 });
  await state.close();
  return {
    sent,
    accepted,
    rejected,
    maxDetached,
    peakInFlight,
    heapBeforeMb,
    heapPeakMb,
    heapAfterMb: heapMb(),
  };
}
