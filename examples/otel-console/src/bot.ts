/**
 * The example bot: a runtime on the test adapter (the "platform"), a memory State and the
 * `@rt/otel` observer. `/weather` looks a city up through a pretend outbound call, which opens
 * its own span: the observer runs every handler in an `rt.handler` span made the active context,
 * so that span nests under it, in the delivery's trace, with no wrapper around the handler. A
 * mention containing "boom" fails, to show a failed outcome.
 */
import type { TracerProvider } from '@opentelemetry/api';
import { createRuntime, type Runtime } from '@rt/core';
import { type OtelObserver, type OtelObserverOptions, otelObserver } from '@rt/otel';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter, type TestAdapter } from '@rt/testing';

/** What `createBot` returns. */
export interface Bot {
  readonly runtime: Runtime;
  readonly platform: TestAdapter;
  readonly otel: OtelObserver;
}

/** Options of `createBot`: the observer's (its tracer provider also makes the bot's own spans). */
export interface BotOptions extends OtelObserverOptions {
  /** Admission bound of the example (small, so a burst shows rejections). Default 4. */
  readonly maxDetached?: number;
}

/** Builds the bot, with `otel.bindRuntime(runtime)` already called (the gauges are live). */
export function createBot(options: BotOptions = {}): Bot {
  const { maxDetached = 4, ...otelOptions } = options;
  const otel = otelObserver(otelOptions);
  const platform = createTestAdapter({
    name: 'demo',
    tenant: 'T-acme',
    shapeModes: { command: 'sync' },
  });
  const runtime = createRuntime({
    state: createMemoryState(),
    adapters: [platform],
    observers: [otel],
    concurrency: 'queue',
    maxDetached,
  });
  otel.bindRuntime(runtime);
  const tracer = tracerOf(otelOptions.tracerProvider);

  runtime.onCommand('weather', async (ctx) => {
    const span = tracer?.startSpan('weather.lookup');
    await new Promise((resolve) => setImmediate(resolve));
    span?.end();
    return { text: `Sunny in ${ctx.event.text ?? 'your city'}` };
  });
  runtime.onMention(async (ctx) => {
    if (ctx.event.text?.includes('boom')) throw new Error('the handler failed on purpose');
    await ctx.reply('hello!');
  });
  return { runtime, platform, otel };
}

/** The tracer for the bot's own spans, when tracing is on. */
function tracerOf(provider: TracerProvider | undefined) {
  return provider?.getTracer('example-otel-console');
}
