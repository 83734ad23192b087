import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otelObserver } from './index.js';
import { ATTR, METRICS, OTHER_TENANT } from './names.js';
import { TENANT_LABEL_AFTER } from './tenant-labels.js';
import { createTelemetry, deferred, type Telemetry, total } from './test-support/telemetry.js';

let telemetry: Telemetry;
beforeEach(() => {
  telemetry = createTelemetry();
});
afterEach(async () => {
  await telemetry.shutdown();
});

const TENANTS = 10_000;

describe('tenant cardinality with 10,000 tenants', () => {
  it('keeps rt.admission.rejected and rt.tenant.in_flight to tenantCardinality + 1 series, labelling the hot tenants', async () => {
    const otel = otelObserver({ meterProvider: telemetry.meterProvider, tenantCardinality: 5 });
    const adapter = createTestAdapter({ name: 'slack' });
    const runtime = createRuntime({
      state: createMemoryState(),
      adapters: [adapter],
      observers: [otel],
      concurrency: 'concurrent',
      maxDetached: TENANTS + 6,
    });
    otel.bindRuntime(runtime);
    const release = deferred();
    runtime.onMessage(() => release.promise);
    for (let i = 0; i < TENANTS; i += 1) await adapter.message('', { tenant: `T${i}` });
    // Three hot tenants hold three slots each: they are the top of the gauge.
    for (const hot of ['T10', 'T20', 'T30']) {
      await adapter.message('', { tenant: hot });
      await adapter.message('', { tenant: hot });
    }
    // 10,000 tenants rejected once each; three noisy ones rejected 200 times each among them.
    const reject = (tenant: string) =>
      expect(adapter.message('', { tenant })).rejects.toMatchObject({ reason: 'capacity' });
    for (let i = 0; i < TENANTS; i += 1) {
      await reject(`R${i}`);
      if (i % 50 === 0) for (const noisy of ['N1', 'N2', 'N3']) await reject(noisy);
    }

    const inFlight = await telemetry.pointsOf(METRICS.tenantInFlight);
    expect(inFlight).toHaveLength(6);
    expect(total(inFlight)).toBe(TENANTS + 6);
    expect(inFlight.slice(0, 3).map((p) => [p.attributes[ATTR.tenant], p.value])).toEqual([
      ['T10', 3],
      ['T20', 3],
      ['T30', 3],
    ]);
    expect(total(inFlight, { [ATTR.tenant]: OTHER_TENANT })).toBe(TENANTS + 6 - 9 - 2);

    const rejected = await telemetry.pointsOf(METRICS.admissionRejected);
    expect(rejected.length).toBeLessThanOrEqual(6);
    expect(total(rejected)).toBe(TENANTS + 600);
    // Each noisy tenant is labelled from its TENANT_LABEL_AFTER-th rejection on.
    const labelled = TENANT_LABEL_AFTER - 1;
    expect(
      rejected
        .map((p) => [p.attributes[ATTR.tenant], p.value])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['N1', 200 - labelled],
      ['N2', 200 - labelled],
      ['N3', 200 - labelled],
      [OTHER_TENANT, TENANTS + 3 * labelled],
    ]);

    release.resolve();
    await adapter.settled();
    await runtime.shutdown();
  });
});
