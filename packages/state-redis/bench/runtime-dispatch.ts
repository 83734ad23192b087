/**
 * What a delivery costs end to end through `@rt/core`: `runtime.dispatch` of a unique event (its
 * own thread, so no strategy drops, coalesces or waits) with a no-op handler under deferred
 * dispatch, from the call until its terminal outcome. Sequentially and with many in flight.
 */
import { randomUUID } from 'node:crypto';
import { createRuntime, type State, type StrategyName } from '@rt/core';
import { createTestAdapter } from '@rt/testing';
import { count, quantileMs } from './table.js';

/** Header of `DispatchRow`s. */
export const DISPATCH_HEADER = [
  'state',
  'strategy',
  'mode',
  'dispatches',
  'dispatches/s',
  'p50 ms',
  'p99 ms',
];

/** One measured run, as table cells (see `DISPATCH_HEADER`). */
export type DispatchRow = readonly string[];

/** How to run one measurement. */
export interface DispatchRun {
  readonly label: string;
  readonly state: State;
  readonly strategy: StrategyName;
  readonly dispatches: number;
  /** Deliveries in flight at once; 1 is sequential (each awaited until its outcome). */
  readonly inFlight: number;
}

/**
 * Dispatches `dispatches` events through a fresh runtime on `state` and waits for each terminal
 * outcome; throws if any is not `completed`. The runtime is shut down afterwards (the State is
 * left open).
 */
export async function measureDispatches(run: DispatchRun): Promise<DispatchRow> {
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
        if (finished.outcome !== 'completed')
          throw new Error(`dispatch ${index}: ${finished.outcome}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await runtime.shutdown();
  latencies.sort((a, b) => a - b);
  return [
    run.label,
    run.strategy,
    run.inFlight === 1 ? 'sequential' : `${run.inFlight} in flight`,
    String(run.dispatches),
    count(run.dispatches / seconds),
    quantileMs(latencies, 0.5),
    quantileMs(latencies, 0.99),
  ];
}
