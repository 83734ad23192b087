import { type Attributes, context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  type MetricReader,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/** One metric data point, flattened for assertions. */
export interface Point {
  readonly metric: string;
  readonly attributes: Attributes;
  /** Counter or gauge value; histogram count. */
  readonly value: number;
  /** Histogram sum (seconds), else undefined. */
  readonly sum: number | undefined;
}

/**
 * The SDK wired for tests: a meter provider read by the in-memory metric exporter (collected on
 * `points()`, never on a timer) and a tracer provider exporting to the in-memory span exporter,
 * with an AsyncLocalStorage context manager so handlers run in their `rt.handler` span context.
 */
export interface Telemetry {
  readonly meterProvider: MeterProvider;
  readonly tracerProvider: TracerProvider;
  /** Collects now and returns every point of every metric. */
  points(): Promise<Point[]>;
  /** Points of one metric. */
  pointsOf(metric: string): Promise<Point[]>;
  /** Every finished span so far. */
  spans(): ReadableSpan[];
  shutdown(): Promise<void>;
}

/** Creates the test SDK (with `readers` added to the meter provider); call `shutdown()` after. */
export function createTelemetry(readers: readonly MetricReader[] = []): Telemetry {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 2_147_483_647,
  });
  const meterProvider = new MeterProvider({ readers: [reader, ...readers] });
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: spanExporter })],
  });
  const points = async (): Promise<Point[]> => {
    metricExporter.reset();
    await reader.forceFlush();
    const collected = metricExporter.getMetrics().at(-1);
    const out: Point[] = [];
    for (const scope of collected?.scopeMetrics ?? []) {
      for (const metric of scope.metrics) out.push(...flatten(metric));
    }
    return out;
  };
  return {
    meterProvider,
    tracerProvider,
    points,
    pointsOf: async (metric) => (await points()).filter((p) => p.metric === metric),
    spans: () => spanExporter.getFinishedSpans(),
    async shutdown() {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
      contextManager.disable();
      context.disable();
    },
  };
}

function flatten(metric: MetricData): Point[] {
  const name = metric.descriptor.name;
  return (metric.dataPoints as DataPoint<number | Histogram>[]).map((point) => {
    const value = point.value;
    return typeof value === 'number'
      ? { metric: name, attributes: point.attributes, value, sum: undefined }
      : { metric: name, attributes: point.attributes, value: value.count, sum: value.sum };
  });
}

/** Sum of the points' values whose attributes include `where`. */
export function total(points: readonly Point[], where: Attributes = {}): number {
  return points
    .filter((p) => Object.entries(where).every(([k, v]) => p.attributes[k] === v))
    .reduce((sum, p) => sum + p.value, 0);
}

/** `{ outcome: count }` over the points of `rt.deliveries.finished`-like metrics. */
export function countBy(points: readonly Point[], key: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of points) {
    const label = String(p.attributes[key]);
    out[label] = (out[label] ?? 0) + p.value;
  }
  return out;
}

/** A promise with its resolver, for gating handlers without sleeps. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
