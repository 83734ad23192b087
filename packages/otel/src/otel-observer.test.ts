import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ATTR, METRICS, OTHER_TENANT, SPANS } from './names.js';
import { failureRun, outcomeRun } from './test-support/scripted-run.js';
import { countBy, createTelemetry, type Telemetry, total } from './test-support/telemetry.js';

let telemetry: Telemetry;
beforeEach(() => {
  telemetry = createTelemetry();
});
afterEach(async () => {
  await telemetry.shutdown();
});

const of = (points: Awaited<ReturnType<Telemetry['points']>>, metric: string) =>
  points.filter((p) => p.metric === metric);
const deliverySpan = (spans: ReadableSpan[], id: string) => {
  const found = spans.filter((s) => s.name === SPANS.delivery && s.attributes[ATTR.eventId] === id);
  return found;
};
const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

describe('the outcome run (completed, duplicate, failed, superseded, rejected, shutdown)', () => {
  it('counts every delivery received and finished by adapter, shape and outcome', async () => {
    await outcomeRun(telemetry);
    const points = await telemetry.points();
    expect(total(of(points, METRICS.deliveriesReceived), { [ATTR.adapter]: 'slack' })).toBe(9);
    expect(countBy(of(points, METRICS.deliveriesFinished), ATTR.outcome)).toEqual({
      completed: 1,
      duplicate: 1,
      failed: 1,
      superseded: 1,
      'admission-rejected': 2,
      shutdown: 3,
    });
    expect(
      of(points, METRICS.deliveriesFinished).every((p) => p.attributes[ATTR.shape] === 'mention'),
    ).toBe(true);
    const durations = of(points, METRICS.dispatchDuration);
    expect(countBy(durations, ATTR.outcome)).toEqual(
      countBy(of(points, METRICS.deliveriesFinished), ATTR.outcome),
    );
  });

  it('counts admission rejections by reason and tenant', async () => {
    await outcomeRun(telemetry);
    const rejected = await telemetry.pointsOf(METRICS.admissionRejected);
    expect(
      rejected.map((p) => [p.attributes[ATTR.reason], p.attributes[ATTR.tenant], p.value]).sort(),
    ).toEqual([
      // T1 was rejected only twice: below TENANT_LABEL_AFTER, so it is not a hot tenant yet.
      ['capacity', OTHER_TENANT, 1],
      ['shutdown', OTHER_TENANT, 1],
    ]);
  });

  it('measures the duration of every handler that ran, and only those', async () => {
    await outcomeRun(telemetry);
    const handler = await telemetry.pointsOf(METRICS.handlerDuration);
    expect(countBy(handler, ATTR.handlerStatus)).toEqual({ ok: 1, error: 3 });
  });

  it('reads the gauges from stats() while work is in flight', async () => {
    const { inFlightPoints } = await outcomeRun(telemetry);
    expect(total(of(inFlightPoints, METRICS.detachedInFlight))).toBe(3);
    expect(total(of(inFlightPoints, METRICS.detachedHighWater))).toBe(3);
    expect(total(of(inFlightPoints, METRICS.parked))).toBe(1);
    expect(total(of(inFlightPoints, METRICS.syncInFlight))).toBe(0);
    expect(of(inFlightPoints, METRICS.tenantInFlight).map((p) => [p.attributes, p.value])).toEqual([
      [{ [ATTR.adapter]: 'slack', [ATTR.tenant]: 'T1' }, 3],
    ]);
  });

  it('makes one delivery span per delivery with its outcome, and refused ones short', async () => {
    await outcomeRun(telemetry);
    const spans = telemetry.spans();
    const deliveries = spans.filter((s) => s.name === SPANS.delivery);
    expect(deliveries).toHaveLength(9);
    expect(
      countBy(
        deliveries.map((s) => ({ metric: '', attributes: s.attributes, value: 1, sum: undefined })),
        ATTR.outcome,
      ),
    ).toEqual({
      completed: 1,
      duplicate: 1,
      failed: 1,
      superseded: 1,
      'admission-rejected': 2,
      shutdown: 3,
    });
    const [e1] = deliverySpan(spans, 'E1');
    expect(e1?.attributes).toMatchObject({
      [ATTR.adapter]: 'slack',
      [ATTR.tenant]: 'T1',
      [ATTR.shape]: 'mention',
      [ATTR.kind]: 'mention',
      [ATTR.mode]: 'deferred',
      [ATTR.strategy]: 'queue',
      [ATTR.outcome]: 'completed',
    });
    expect(e1?.status.code).toBe(SpanStatusCode.UNSET);
    const [e2] = deliverySpan(spans, 'E2');
    expect(e2?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Error' });
    expect(e2?.attributes[ATTR.errorType]).toBe('Error');
    const [e4] = deliverySpan(spans, 'E4');
    expect(e4?.attributes).toMatchObject({
      [ATTR.outcome]: 'superseded',
      [ATTR.supersededBy]: 'E5',
    });
    const rejected = deliveries.filter((s) => s.attributes[ATTR.outcome] === 'admission-rejected');
    expect(rejected.map((s) => s.attributes[ATTR.reason]).sort()).toEqual(['capacity', 'shutdown']);
    expect(
      deliverySpan(spans, 'E1')
        .map((s) => s.attributes[ATTR.outcome])
        .sort(),
    ).toEqual(['completed', 'duplicate']);
  });

  it("nests the prelude, the handler and the handler's own spans under the delivery, with no wrapper", async () => {
    await outcomeRun(telemetry);
    const spans = telemetry.spans();
    // Six deliveries were accepted (E1..E6); four of them ran their handler (E1, E2, E3, E6).
    expect(spans.filter((s) => s.name === SPANS.handler)).toHaveLength(4);
    expect(spans.filter((s) => s.name === SPANS.prelude)).toHaveLength(6);
    expect(spans.filter((s) => s.name === 'bot.outbound')).toHaveLength(4);
    for (const id of ['E1', 'E2', 'E3', 'E6']) {
      const delivery = deliverySpan(spans, id).find(
        (s) => s.attributes[ATTR.outcome] !== 'duplicate',
      );
      if (!delivery) throw new Error(`no delivery span for ${id}`);
      const children = childrenOf(spans, delivery)
        .map((s) => s.name)
        .sort();
      expect(children).toEqual([SPANS.handler, SPANS.prelude]);
      const handler = childrenOf(spans, delivery).find((s) => s.name === SPANS.handler);
      if (!handler) throw new Error('no handler span');
      expect(childrenOf(spans, handler).map((s) => s.name)).toEqual(['bot.outbound']);
      expect(handler.spanContext().traceId).toBe(delivery.spanContext().traceId);
    }
    for (const id of ['E4', 'E5']) {
      const [delivery] = deliverySpan(spans, id);
      expect(delivery && childrenOf(spans, delivery).map((s) => s.name)).toEqual([SPANS.prelude]);
    }
  });
});

describe('the failure run (lock conflict, prelude error, State error, lease loss, notices)', () => {
  it('counts each failure kind exactly', async () => {
    await failureRun(telemetry);
    const points = await telemetry.points();
    expect(of(points, METRICS.lockConflicts).map((p) => [p.attributes, p.value])).toEqual([
      [{ [ATTR.adapter]: 'slack' }, 1],
    ]);
    expect(of(points, METRICS.leaseLosses).map((p) => [p.attributes, p.value])).toEqual([
      [{ [ATTR.adapter]: 'slack' }, 1],
    ]);
    expect(of(points, METRICS.preludeErrors).map((p) => [p.attributes, p.value])).toEqual([
      [{ [ATTR.adapter]: 'slack', [ATTR.shape]: 'mention' }, 1],
    ]);
    expect(of(points, METRICS.stateErrors).map((p) => [p.attributes, p.value])).toEqual([
      [{ [ATTR.operation]: 'releaseLock' }, 1],
    ]);
    expect(of(points, METRICS.adapterNotices).map((p) => [p.attributes, p.value])).toEqual([
      [{ [ATTR.adapter]: 'slack', [ATTR.notice]: 'busy_failed' }, 2],
    ]);
    expect(countBy(of(points, METRICS.deliveriesFinished), ATTR.outcome)).toEqual({
      completed: 3,
      dropped: 1,
      'prelude-error': 1,
      preempted: 1,
    });
    expect(total(of(points, METRICS.deliveriesReceived))).toBe(6);
  });

  it('measures handler durations of the deliveries whose handler ran (not the dropped one)', async () => {
    await failureRun(telemetry);
    const handler = await telemetry.pointsOf(METRICS.handlerDuration);
    expect(countBy(handler, ATTR.handlerStatus)).toEqual({ ok: 3, error: 1 });
  });

  it('marks conflicts, prelude errors and preemption on the delivery spans', async () => {
    await failureRun(telemetry);
    const spans = telemetry.spans();
    expect(deliverySpan(spans, 'L2')[0]?.attributes).toMatchObject({
      [ATTR.outcome]: 'dropped',
      [ATTR.lockConflicts]: 1,
      [ATTR.strategy]: 'drop',
    });
    expect(deliverySpan(spans, 'P1')[0]?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Error',
    });
    expect(deliverySpan(spans, 'S1')[0]?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'RT_PREEMPTED',
    });
    expect(deliverySpan(spans, 'C1')[0]?.attributes).toMatchObject({
      [ATTR.mode]: 'sync',
      [ATTR.outcome]: 'completed',
      [ATTR.shape]: 'command',
    });
    expect(spans.filter((s) => s.name === SPANS.delivery)).toHaveLength(6);
  });
});
