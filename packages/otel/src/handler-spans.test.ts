import { context, type HrTime, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { type CreateRuntimeOptions, createRuntime, type Handler } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ATTR, METRICS, SPANS } from './names.js';
import { otelObserver } from './otel-observer.js';
import { createTelemetry, deferred, type Telemetry } from './test-support/telemetry.js';

let telemetry: Telemetry;
beforeEach(() => {
  telemetry = createTelemetry();
});
afterEach(async () => {
  vi.useRealTimers();
  await telemetry.shutdown();
});

/** A runtime whose only instrumentation is the observer: handlers are plain functions. */
function bot(options: Partial<CreateRuntimeOptions> = {}) {
  const otel = otelObserver({
    meterProvider: telemetry.meterProvider,
    tracerProvider: telemetry.tracerProvider,
  });
  const adapter = createTestAdapter({
    name: 'slack',
    tenant: 'T1',
    shapeModes: { command: 'sync' },
  });
  const runtime = createRuntime({
    state: createMemoryState(),
    adapters: [adapter],
    observers: [otel],
    ...options,
  });
  otel.bindRuntime(runtime);
  return { runtime, adapter, tracer: telemetry.tracerProvider.getTracer('bot') };
}

const named = (name: string) => telemetry.spans().filter((s) => s.name === name);
const childrenOf = (parent: ReadableSpan) =>
  telemetry.spans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
const deliveryOf = (id: string) => {
  const found = named(SPANS.delivery).filter((s) => s.attributes[ATTR.eventId] === id);
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const ms = ([seconds, nanos]: HrTime) => seconds * 1000 + nanos / 1e6;

describe('a runtime with only observers: [otel]', () => {
  it("nests rt.prelude and rt.handler under rt.delivery, and the handler's own span under rt.handler", async () => {
    const { runtime, adapter, tracer } = bot();
    const call: Handler = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      tracer.startSpan('bot.call').end(); // after an await: the context travelled with it
      return { text: 'ok' };
    };
    runtime.onMention(call);
    runtime.onCommand('status', call);
    await adapter.mention('a', { id: 'M1' });
    await adapter.mention('b', { id: 'M2' });
    await adapter.mention('c', { id: 'M3' });
    await adapter.command('status', '', { id: 'C1' });
    await adapter.settled();
    await runtime.shutdown();

    expect(named(SPANS.delivery)).toHaveLength(4);
    expect(named(SPANS.prelude)).toHaveLength(4);
    expect(named(SPANS.handler)).toHaveLength(4);
    expect(named('bot.call')).toHaveLength(4);
    for (const id of ['M1', 'M2', 'M3', 'C1']) {
      const delivery = deliveryOf(id);
      const children = childrenOf(delivery);
      expect(children.map((s) => s.name).sort()).toEqual([SPANS.handler, SPANS.prelude]);
      const handler = children.find((s) => s.name === SPANS.handler) as ReadableSpan;
      expect(childrenOf(handler).map((s) => s.name)).toEqual(['bot.call']);
      expect(new Set(children.map((s) => s.spanContext().traceId))).toEqual(
        new Set([delivery.spanContext().traceId]),
      );
    }
    expect(deliveryOf('C1').attributes[ATTR.mode]).toBe('sync');
  });

  it('times the delivery from receipt, the prelude to admission and the handler for its run', async () => {
    vi.useFakeTimers({
      now: Date.UTC(2026, 0, 1),
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    const { runtime, adapter } = bot();
    runtime.onMention(() => new Promise((resolve) => setTimeout(resolve, 400)));
    const receivedAt = Date.now() - 250; // the adapter read and verified it for 250 ms
    await adapter.mention('slow', { id: 'T1', receivedAt });
    await vi.advanceTimersByTimeAsync(400);
    await adapter.settled();
    vi.useRealTimers(); // the SDK's metric collection runs on timers of its own

    const delivery = deliveryOf('T1');
    const [prelude] = named(SPANS.prelude);
    const [handler] = named(SPANS.handler);
    if (!prelude || !handler) throw new Error('missing child span');
    expect([ms(delivery.startTime), ms(delivery.endTime)]).toEqual([receivedAt, receivedAt + 650]);
    expect([ms(prelude.startTime), ms(prelude.endTime)]).toEqual([receivedAt, receivedAt + 250]);
    expect([ms(handler.startTime), ms(handler.endTime)]).toEqual([
      receivedAt + 250,
      receivedAt + 650,
    ]);
    const [dispatch] = await telemetry.pointsOf(METRICS.dispatchDuration);
    const [run] = await telemetry.pointsOf(METRICS.handlerDuration);
    expect(dispatch?.sum).toBeCloseTo(0.65, 9);
    expect(run?.sum).toBeCloseTo(0.4, 9);
    await runtime.shutdown();
  });

  it('parents each delivery span on the context active at its dispatch, wherever it ends', async () => {
    const { runtime, adapter, tracer } = bot({ concurrency: 'queue' });
    const started = deferred();
    const release = deferred();
    runtime.onMention(async (ctx) => {
      if (ctx.event.id !== 'hold') return;
      started.resolve();
      await release.promise;
    });
    const server = (id: string) => tracer.startSpan(`server ${id}`);
    const within = <T>(span: ReturnType<typeof server>, run: () => Promise<T>) =>
      context.with(trace.setSpan(context.active(), span), run);
    const requests = { hold: server('hold'), older: server('older'), newer: server('newer') };
    await within(requests.hold, () => adapter.mention('x', { id: 'hold', thread: 't' }));
    await started.promise;
    // `older` parks, then ends superseded inside `newer`'s dispatch.
    await within(requests.older, () => adapter.mention('x', { id: 'older', thread: 't' }));
    await within(requests.newer, () => adapter.mention('x', { id: 'newer', thread: 't' }));
    release.resolve();
    await adapter.settled();
    await runtime.shutdown();

    for (const [id, request] of Object.entries(requests)) {
      expect(deliveryOf(id).parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    }
    expect(deliveryOf('older').attributes).toMatchObject({
      [ATTR.outcome]: 'superseded',
      [ATTR.supersededBy]: 'newer',
    });
  });

  it('gives every handler of a delivery its own rt.handler span', async () => {
    const { runtime, adapter } = bot();
    runtime.onMention(() => {});
    runtime.onMention(() => {
      throw new Error('second handler failed');
    });
    await adapter.mention('x', { id: 'TWO' });
    await adapter.settled();
    await runtime.shutdown();
    const handlers = childrenOf(deliveryOf('TWO')).filter((s) => s.name === SPANS.handler);
    expect(handlers.map((s) => s.status.code).sort()).toEqual([0, 2]);
    expect(deliveryOf('TWO').attributes[ATTR.outcome]).toBe('failed');
  });

  it("puts a burst batch's one handler span under its first member's delivery", async () => {
    vi.useFakeTimers({
      now: Date.UTC(2026, 0, 1),
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    const { runtime, adapter } = bot({ concurrency: { strategy: 'burst', burstWindowMs: 50 } });
    runtime.onMention(() => {});
    for (const id of ['B1', 'B2', 'B3']) await adapter.mention('x', { id, thread: 'b' });
    await vi.advanceTimersByTimeAsync(50);
    await adapter.settled();
    vi.useRealTimers(); // shutdown and the SDK's metric collection wait on real timers
    await runtime.shutdown();
    expect(named(SPANS.handler)).toHaveLength(1);
    expect(
      childrenOf(deliveryOf('B1'))
        .map((s) => s.name)
        .sort(),
    ).toEqual([SPANS.handler, SPANS.prelude]);
    for (const id of ['B2', 'B3']) {
      expect(childrenOf(deliveryOf(id)).map((s) => s.name)).toEqual([SPANS.prelude]);
    }
    const handlerPoints = await telemetry.pointsOf(METRICS.handlerDuration);
    expect(handlerPoints.map((p) => p.value)).toEqual([3]); // one run, counted for each member
  });
});
