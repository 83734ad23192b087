import { readFileSync } from 'node:fs';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { describe, expect, it } from 'vitest';
import { failureRun, outcomeRun } from './test-support/scripted-run.js';
import { createTelemetry } from './test-support/telemetry.js';

/** The `rt_*` names the README's metric table promises for Prometheus. */
function namesInReadme(): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = readme.slice(
    readme.indexOf('<!-- metrics -->'),
    readme.indexOf('<!-- /metrics -->'),
  );
  return [...table.matchAll(/`(rt_[a-z_]+)`/g)].map((m) => m[1] as string).sort();
}

describe('the Prometheus exporter', () => {
  it('exposes exactly the metric names the README table lists', async () => {
    const prometheus = new PrometheusExporter({ preventServerStart: true });
    const telemetry = createTelemetry([prometheus]);
    await outcomeRun(telemetry);
    await failureRun(telemetry);
    const { resourceMetrics } = await prometheus.collect();
    const text = new PrometheusSerializer().serialize(resourceMetrics);
    const exposed = [...text.matchAll(/^# TYPE (rt_[a-z_]+) /gm)].map((m) => m[1] as string).sort();
    expect(exposed).toEqual(namesInReadme());
    await telemetry.shutdown();
  });
});
