/**
 * What a delivery costs end to end through `@rt/core`: `runtime.dispatch` of a unique event (its
 * own thread, so no strategy drops, coalesces or waits) with a no-op handler under deferred
 * dispatch, from the call until its terminal outcome; sequentially or with many in flight.
 */
import { randomUUID } from 'node:crypto';
import { createRuntime, type State, type StrategyName } from '@rt/core';
import { createTestAdapter } from '@rt/testing';
import { quantile } from '../report/stats.js';

/** How to run one measurement. */
export interface DispatchRun {
  readonly state: State;
  readonly strategy: StrategyName;
  readonly dispatches: number;
  /** Deliveries in flight at once; 1 is sequential (each awaited until its outcome). */
  readonly inFlight: number;
}

/** What one run measured. */
export interface DispatchFigures {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/**
 * Dispatches `dispatches` events through a fresh runtime on `state` and waits for each terminal
 * outcome; throws if any is not `completed`. The runtime is shut down afterwards (the State is
 * left open).
 */
export async function measureDispatches(run: DispatchRun): Promise<DispatchFigures> {
  const adapter = createTestAdapter({ name: `bench-${randomUUID().slice(0, 8)}` });
  const runtime = createRuntime({
    state: run.state,
    adapters: [adapter],
    concurrency: { strategy: run.strategy, debounceMs: 1, burstWindowMs: 1 },
    dedupeTtlMs: 60_000,
  });
  runtime.onMessage(() => {});
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: run.inFlight }, async () => {
      for (let index = next++; index < run.dispatches; index = next++) {
        const t0 = performance.now();
        const result = await adapter.send({ thread: `t${index}` });
        if (result.status !== 'accepted') throw new Error(`dispatch ${index}: ${result.status}`);
        const finished = await result.settled;
        if (finished.outcome !== 'completed') {
          throw new Error(`dispatch ${index}: ${finished.outcome}`);
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await runtime.shutdown();
  return {
    perSecond: run.dispatches / seconds,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
  };
}
