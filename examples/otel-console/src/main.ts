/**
 * Runs the example offline: a scripted stream of deliveries (completed, duplicate, failed, a
 * sync command, a burst that overflows the admission bound, and a message whose handler thinks
 * for two seconds), then shutdown. Spans print in batches (the batch span processor), metrics
 * once at the end. The first SIGINT/SIGTERM ends the script early with the same graceful
 * shutdown (the running handler finishes, telemetry is flushed); repeats while it runs are logged
 * and ignored. Run: `pnpm --filter @rt/example-otel-console start`.
 */
import { ConsoleMetricExporter } from '@opentelemetry/sdk-metrics';
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace';
import { AdmissionRejectedError } from '@rt/core';
import { shutdownOnSignals } from '@rt/example-shared/signals';
import { createBot } from './bot.js';
import { setUpTelemetry } from './telemetry.js';

/** How long the last step's handler works: time enough to press Ctrl-C and watch it finish. */
const THINK_MS = 2_000;

const telemetry = setUpTelemetry(new ConsoleSpanExporter(), new ConsoleMetricExporter());
const { runtime, platform } = createBot({
  meterProvider: telemetry.meterProvider,
  tracerProvider: telemetry.tracerProvider,
  onError: (error) => console.error('telemetry failed', error),
});
runtime.onMessage('think', async (ctx) => {
  console.log(`thinking for ${THINK_MS} ms (Ctrl-C now: the shutdown lets this handler finish)`);
  await new Promise((resolve) => setTimeout(resolve, THINK_MS));
  await ctx.reply('done thinking');
  console.log('done thinking');
});

let rejected = 0;
let finishing: Promise<void> | undefined;
/** The one shutdown, whether the script ran to its end or a signal cut it short. */
function finish(): Promise<void> {
  finishing ??= (async () => {
    await runtime.shutdown();
    await telemetry.shutdown();
    console.log(
      `done: ${runtime.stats().outcomes.completed} completed, ${rejected} rejected by admission`,
    );
  })();
  return finishing;
}
let stopping = false;
shutdownOnSignals(() => {
  stopping = true;
  return finish();
});

const steps: (() => Promise<unknown>)[] = [
  () => platform.mention('hi there', { id: 'M1' }),
  () => platform.mention('hi there', { id: 'M1' }), // a platform retry: duplicate
  () => platform.mention('boom', { id: 'M2' }),
  () => platform.command('weather', 'Lisbon', { id: 'C1' }),
  async () => {
    const burst = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        platform.mention('busy', { id: `B${i}`, thread: `t${i}` }),
      ),
    );
    rejected = burst.filter(
      (r) => r.status === 'rejected' && r.reason instanceof AdmissionRejectedError,
    ).length;
    await platform.settled();
  },
  () => platform.message('think about it', { id: 'T1' }),
];
for (const step of steps) {
  if (stopping) break;
  await step();
}
await platform.settled();
await finish();
