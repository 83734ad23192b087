import { createRuntime, type StrategyName } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';

/** Deliveries sent at once: the default admission bound. */
const WAVE = 1024;

/** One measured run of `dispatch` with a no-op handler. */
export interface ThroughputResult {
  readonly strategy: StrategyName;
  readonly dispatches: number;
  readonly seconds: number;
  /**
   * Seconds the event loop was busy during the run (`performance.eventLoopUtilization`): the
   * wall time minus the time it sat idle, which is where debounce's and burst's windows go.
   */
  readonly busySeconds: number;
  readonly perSecond: number;
  readonly completed: number;
}

/**
 * Dispatches `count` unique events (each in its own thread, so no strategy coalesces or drops)
 * through a runtime on memory State with a no-op handler, in waves no larger than the bound, and
 * waits for every one to finish. Measures the whole pipeline:
 * prelude (route, admission, dedupe mark), strategy, handler, outcome. Debounce and burst run with
 * their shortest window (1 ms), which the run's `busySeconds` leaves out.
 */
export async function measureThroughput(
  strategy: StrategyName,
  count: number,
): Promise<ThroughputResult> {
  const state = createMemoryState();
  const adapter = createTestAdapter();
  const maxDetached = WAVE;
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    maxDetached,
    concurrency: { strategy, maxConcurrent: 4, debounceMs: 1, burstWindowMs: 1 },
  });
  runtime.onMessage(() => {});
  const started = performance.now();
  const loopAtStart = performance.eventLoopUtilization();
  for (let sent = 0; sent < count; sent += maxDetached) {
    const wave = Math.min(maxDetached, count - sent);
    await Promise.all(
      Array.from({ length: wave }, (_, i) => adapter.send({ thread: `t${sent + i}` })),
    );
    await adapter.settled();
  }
  const seconds = (performance.now() - started) / 1000;
  const busySeconds = performance.eventLoopUtilization(loopAtStart).active / 1000;
  await runtime.shutdown();
  await state.close();
  return {
    strategy,
    dispatches: count,
    seconds,
    busySeconds,
    perSecond: Math.round(count / seconds),
    completed: runtime.stats().outcomes.completed,
  };
}

/**
 * The baseline of `measureThroughput`: the same waves of a plain `async` call of a no-op handler.
 * Resolves microseconds per call.
 */
export async function measurePlainCalls(count: number): Promise<number> {
  const handler = async (_event: { thread: string }) => {};
  const started = performance.now();
  for (let sent = 0; sent < count; sent += WAVE) {
    const wave = Math.min(WAVE, count - sent);
    await Promise.all(Array.from({ length: wave }, (_, i) => handler({ thread: `t${sent + i}` })));
  }
  return ((performance.now() - started) * 1000) / count;
}
