/**
 * Shows that `otelObserver()` with no provider allocates nothing per delivery: heap bytes
 * allocated per observation and per dispatched delivery, against a baseline measured in the same
 * run (an empty observer; a runtime with no observers). Allocation is heap growth plus what each
 * GC inside the loop freed (`v8.GCProfiler`), so it stays exact when scavenges run.
 *
 * Run: pnpm --filter @rt/otel bench. A benchmark, not a test: numbers vary by machine.
 */
import { GCProfiler } from 'node:v8';
import {
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { createRuntime, type EventRef, type Observation, type Observer } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';
import { otelObserver } from '../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (pnpm --filter @rt/otel bench does)');

/**
 * Bytes allocated per iteration of `run(i)` over `iterations`: heap growth plus what every GC in
 * between freed (from `v8.GCProfiler`), so a scavenge inside the loop does not hide allocation.
 */
async function measure(iterations: number, run: (i: number) => unknown): Promise<[number, number]> {
  for (let i = 0; i < 2_000; i += 1) await run(i);
  gc?.();
  const profiler = new GCProfiler();
  profiler.start();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < iterations; i += 1) {
    const result = run(i);
    if (result instanceof Promise) await result;
  }
  const after = process.memoryUsage().heapUsed;
  const { statistics } = profiler.stop();
  const freed = statistics.reduce(
    (sum, s) =>
      sum + s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize,
    0,
  );
  return [(after - before + freed) / iterations, statistics.length];
}

const event: EventRef = {
  adapter: 'slack',
  tenant: 'T1',
  id: 'E1',
  kind: 'message',
  shape: 'event_callback',
};
/** One delivery's observations, built once and replayed (so only the observer allocates). */
const cycle: Observation[] = [
  { type: 'dispatch_admitted', at: 1, receivedAt: 0, event, mode: 'deferred' },
  { type: 'lock_conflict', at: 2, event, lockKey: 'slack:T1:C1:t1' },
  {
    type: 'dispatch_finished',
    at: 3,
    receivedAt: 0,
    event,
    mode: 'deferred',
    outcome: 'completed',
    durationMs: 2,
    handlerStartedAt: 2,
    handlerMs: 1,
  },
  {
    type: 'admission_rejected',
    at: 4,
    receivedAt: 4,
    event,
    adapter: 'slack',
    tenant: 'T1',
    reason: 'capacity',
    mode: 'deferred',
  },
  {
    type: 'dispatch_finished',
    at: 4,
    receivedAt: 4,
    event,
    mode: 'deferred',
    outcome: 'admission-rejected',
    durationMs: 0,
  },
  { type: 'adapter_notice', at: 5, adapter: 'slack', name: 'busy_failed' },
];

function sdk(): { meterProvider: MeterProvider; tracerProvider: TracerProvider } {
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(0),
    exportIntervalMillis: 2_147_483_647,
  });
  const spans = new InMemorySpanExporter();
  // Drop finished spans at once: the bench measures recording, not an ever-growing exporter.
  spans.export = (_, done) => done({ code: 0 });
  return {
    meterProvider: new MeterProvider({ readers: [reader] }),
    tracerProvider: new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
    }),
  };
}

async function perObservation(): Promise<string[][]> {
  const N = 200_000;
  const variants: [string, Observer][] = [
    ['empty observer (baseline)', () => {}],
    ['otelObserver(), no provider', otelObserver()],
    ['otelObserver(meter only)', otelObserver({ meterProvider: sdk().meterProvider })],
    ['otelObserver(meter + tracer), SDK', otelObserver(sdk())],
  ];
  const rows: string[][] = [];
  for (const [name, observer] of variants) {
    const [bytes, gcs] = await measure(N, (i) => observer(cycle[i % cycle.length] as Observation));
    rows.push([name, bytes.toFixed(1), String(gcs)]);
  }
  return rows;
}

async function perDelivery(): Promise<string[][]> {
  const N = 20_000;
  const rows: string[][] = [];
  const variants: [string, Observer[]][] = [
    ['runtime, no observers (baseline)', []],
    ['runtime + otelObserver(), no provider', [otelObserver()]],
  ];
  for (const [name, observers] of variants) {
    const adapter = createTestAdapter();
    const runtime = createRuntime({ state: createMemoryState(), adapters: [adapter], observers });
    runtime.onMessage(() => {});
    const [bytes, gcs] = await measure(N, async (i) => {
      await adapter.send({ id: `e${i}`, thread: 't' });
      await adapter.settled();
    });
    await runtime.shutdown();
    rows.push([name, bytes.toFixed(1), String(gcs)]);
  }
  return rows;
}

function print(title: string, rows: string[][]): void {
  const header = [title, 'bytes/iteration', 'GCs during loop'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ');
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
  console.log();
}

print('per observation', await perObservation());
print('per delivery (dispatch + settle)', await perDelivery());
console.log(
  'Read: "no provider" equal to its baseline (within noise) means @rt/otel allocates nothing\n' +
    'per observation or delivery; the SDK rows show what recording costs once providers are set.',
);
