import { AdmissionRejectedError, createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';

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
 * `sent`. Handlers are released at the end by shutdown.
 */
export async function measureFlood(sent: number, maxDetached: number): Promise<FloodResult> {
  const state = createMemoryState();
  const adapter = createTestAdapter();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    maxDetached,
    concurrency: 'concurrent',
  });
  runtime.onMessage(
    (ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', resolve)),
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
