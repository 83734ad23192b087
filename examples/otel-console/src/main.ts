/**
 * Runs the example offline: a scripted stream of deliveries (completed, duplicate, failed, a
 * sync command, a burst that overflows the admission bound), then shutdown. Spans print in
 * batches (the batch span processor), metrics once at the end.
 * Run: `pnpm --filter @rt/example-otel-console start`.
 */
import { ConsoleMetricExporter } from '@opentelemetry/sdk-metrics';
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace';
import { AdmissionRejectedError } from '@rt/core';
import { createBot } from './bot.js';
import { setUpTelemetry } from './telemetry.js';

const telemetry = setUpTelemetry(new ConsoleSpanExporter(), new ConsoleMetricExporter());
const { runtime, platform } = createBot({
  meterProvider: telemetry.meterProvider,
  tracerProvider: telemetry.tracerProvider,
  onError: (error) => console.error('telemetry failed', error),
});

await platform.mention('hi there', { id: 'M1' });
await platform.mention('hi there', { id: 'M1' }); // a platform retry: duplicate
await platform.mention('boom', { id: 'M2' });
await platform.command('weather', 'Lisbon', { id: 'C1' });
const burst = await Promise.allSettled(
  Array.from({ length: 8 }, (_, i) => platform.mention('busy', { id: `B${i}`, thread: `t${i}` })),
);
const rejected = burst.filter(
  (r) => r.status === 'rejected' && r.reason instanceof AdmissionRejectedError,
).length;
await platform.settled();
await runtime.shutdown();
await telemetry.shutdown();
console.log(
  `done: ${runtime.stats().outcomes.completed} completed, ${rejected} rejected by admission`,
);
