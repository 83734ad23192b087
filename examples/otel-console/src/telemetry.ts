/**
 * The OpenTelemetry SDK of the example: an AsyncLocalStorage context manager (so handlers' own
 * spans nest under their delivery), a meter provider and a tracer provider. The
 * exporters are passed in: the console ones in `main.ts`, in-memory ones in the test. Swap them
 * for OTLP or Prometheus in a real bot; `@rt/otel` does not change.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from '@opentelemetry/sdk-trace';

/** The SDK objects the bot records into. */
export interface Telemetry {
  readonly meterProvider: MeterProvider;
  readonly tracerProvider: TracerProvider;
  /** Exports what is pending now (metrics are collected for it). */
  flush(): Promise<void>;
  /** Flushes, then stops the providers and the context manager. */
  shutdown(): Promise<void>;
}

/** Sets up the SDK exporting to `spans` and `metrics` (metrics every `exportIntervalMs`). */
export function setUpTelemetry(
  spans: SpanExporter,
  metrics: PushMetricExporter,
  exportIntervalMs = 60_000,
): Telemetry {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: metrics,
        exportIntervalMillis: exportIntervalMs,
      }),
    ],
  });
  const tracerProvider = new TracerProvider({
    // Batch: exporting happens off the dispatch path (a simple processor exports inside span.end()).
    spanProcessors: [new BatchSpanProcessor({ exporter: spans })],
  });
  return {
    meterProvider,
    tracerProvider,
    async flush() {
      await meterProvider.forceFlush();
      await tracerProvider.forceFlush();
    },
    async shutdown() {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
      contextManager.disable();
      context.disable();
    },
  };
}
