import { AggregationTemporality, InMemoryMetricExporter } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { createBot } from './bot.js';
import { setUpTelemetry } from './telemetry.js';

describe('the otel-console example bot', () => {
  it('exports a delivery span per delivery, with the handler and its lookup nested, and the metrics', async () => {
    const spans = new InMemorySpanExporter();
    const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const telemetry = setUpTelemetry(spans, metrics);
    const { runtime, platform } = createBot(telemetry);
    await platform.command('weather', 'Lisbon', { id: 'C1' });
    await platform.mention('boom', { id: 'M2' });
    await platform.settled();
    await runtime.shutdown();
    await telemetry.flush();

    const finished = spans.getFinishedSpans();
    const byName = (name: string) => finished.filter((s) => s.name === name);
    expect(
      byName('rt.delivery')
        .map((s) => s.attributes['rt.outcome'])
        .sort(),
    ).toEqual(['completed', 'failed']);
    expect(byName('rt.prelude')).toHaveLength(2);
    expect(byName('rt.handler')).toHaveLength(2);
    const [delivery] = byName('rt.delivery').filter((s) => s.attributes['rt.shape'] === 'command');
    const [handler] = byName('rt.handler').filter((s) => s.attributes['rt.shape'] === 'command');
    const [lookup] = byName('weather.lookup');
    expect(handler?.parentSpanContext?.spanId).toBe(delivery?.spanContext().spanId);
    expect(lookup?.parentSpanContext?.spanId).toBe(handler?.spanContext().spanId);
    const names = metrics
      .getMetrics()
      .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name)));
    expect(names).toEqual(
      expect.arrayContaining([
        'rt.deliveries.finished',
        'rt.dispatch.duration',
        'rt.detached.in_flight',
      ]),
    );
    await telemetry.shutdown();
  });
});
