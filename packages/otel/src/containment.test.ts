import {
  type Meter,
  type MeterProvider,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { createRuntime, type HandlerContext, type RuntimeStats } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';
import { describe, expect, it, vi } from 'vitest';
import { AlreadyBoundError, otelObserver, RecordingError } from './index.js';
import { METRICS } from './names.js';
import { createTelemetry } from './test-support/telemetry.js';

const boom = () => {
  throw new Error('exporter down');
};
/** A meter whose every instrument throws on use. */
const brokenMeterProvider: MeterProvider = {
  getMeter: () =>
    new Proxy({} as Meter, {
      get: (_, name) =>
        name === 'addBatchObservableCallback' || name === 'removeBatchObservableCallback'
          ? boom
          : () => ({ add: boom, record: boom }),
    }),
};
const brokenTracerProvider: TracerProvider = {
  getTracer: () => ({ startSpan: boom, startActiveSpan: boom }) as unknown as Tracer,
};

describe('a failing meter, tracer or exporter', () => {
  it('never reaches dispatch, handlers or the runtime observer count', async () => {
    const onError = vi.fn();
    const otel = otelObserver({
      meterProvider: brokenMeterProvider,
      tracerProvider: brokenTracerProvider,
      onError,
    });
    const adapter = createTestAdapter({ shapeModes: { command: 'sync' } });
    const runtime = createRuntime({
      state: createMemoryState(),
      adapters: [adapter],
      observers: [otel],
    });
    expect(() => otel.bindRuntime(runtime)).not.toThrow();
    const handler = vi.fn((ctx: HandlerContext) => ({ text: `hi ${ctx.event.id}` }));
    runtime.onCommand('status', handler);
    const result = await adapter.command('status', '', { id: 'C1' });
    expect(result).toMatchObject({
      status: 'completed',
      outcome: 'completed',
      response: { text: 'hi C1' },
    });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(runtime.stats().observerFailures).toBe(0);
    expect(onError).toHaveBeenCalled();
    expect(onError.mock.calls.every(([e]) => e instanceof RecordingError)).toBe(true);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ code: 'RT_OTEL_RECORDING_FAILED' });
    await runtime.shutdown();
  });

  it('contains an onError hook that throws too', async () => {
    const otel = otelObserver({ meterProvider: brokenMeterProvider, onError: boom });
    const adapter = createTestAdapter();
    const runtime = createRuntime({
      state: createMemoryState(),
      adapters: [adapter],
      observers: [otel],
    });
    runtime.onMessage(() => {});
    await adapter.message('hi');
    await adapter.settled();
    expect(runtime.stats().observerFailures).toBe(0);
    expect(runtime.stats().outcomes.completed).toBe(1);
    await runtime.shutdown();
  });
  it('still ends every delivery span when only the meter fails', async () => {
    const telemetry = createTelemetry();
    const otel = otelObserver({
      meterProvider: brokenMeterProvider,
      tracerProvider: telemetry.tracerProvider,
    });
    const adapter = createTestAdapter();
    const runtime = createRuntime({
      state: createMemoryState(),
      adapters: [adapter],
      observers: [otel],
    });
    runtime.onMessage(() => {});
    await adapter.message('one', { id: 'A' });
    await adapter.message('one', { id: 'A' });
    await adapter.settled();
    await runtime.shutdown();
    expect(
      telemetry
        .spans()
        .map((s) => [s.name, s.attributes['rt.outcome']])
        .sort(),
    ).toEqual([
      ['rt.delivery', 'completed'],
      ['rt.delivery', 'duplicate'],
      ['rt.handler', undefined],
      ['rt.prelude', undefined],
    ]);
    await telemetry.shutdown();
  });
});

describe('aroundHandler', () => {
  it('is absent without a tracer provider, so the runtime calls handlers directly', () => {
    const telemetry = createTelemetry();
    expect(otelObserver().aroundHandler).toBeUndefined();
    expect(otelObserver({ meterProvider: telemetry.meterProvider }).aroundHandler).toBeUndefined();
    expect(typeof otelObserver({ tracerProvider: telemetry.tracerProvider }).aroundHandler).toBe(
      'function',
    );
  });

  it('passes a value, a thrown error and a rejected promise through unchanged, calling run once', async () => {
    const telemetry = createTelemetry();
    const otel = otelObserver({ tracerProvider: telemetry.tracerProvider });
    const around = otel.aroundHandler;
    if (!around) throw new Error('no aroundHandler with a tracer provider');
    const error = new Error('mine');
    const ctx = {
      event: { adapter: 'a', tenant: 't', id: 'x', shape: 's', receivedAt: 0 },
      mode: 'sync',
      batch: [],
    } as unknown as HandlerContext;
    const throwing = vi.fn(() => {
      throw error;
    });
    expect(() => around(ctx, throwing)).toThrow(error);
    expect(throwing).toHaveBeenCalledTimes(1);
    const rejected = Promise.reject(error);
    expect(around(ctx, () => rejected)).toBe(rejected);
    await expect(rejected).rejects.toBe(error);
    const value = { text: 'value' };
    expect(around(ctx, () => value)).toBe(value);
    await Promise.resolve();
    expect(
      telemetry
        .spans()
        .map((s) => [s.name, s.status.code])
        .sort(),
    ).toEqual([
      ['rt.handler', SpanStatusCode.UNSET],
      ['rt.handler', SpanStatusCode.ERROR],
      ['rt.handler', SpanStatusCode.ERROR],
    ]);
    await telemetry.shutdown();
  });

  it('runs the handler exactly once when its span cannot start or end', async () => {
    const onError = vi.fn();
    const endless: TracerProvider = {
      getTracer: () =>
        ({
          startSpan: () => ({
            end: boom,
            setAttribute: () => {},
            setStatus: () => {},
            spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 1 }),
          }),
        }) as unknown as Tracer,
    };
    for (const tracerProvider of [brokenTracerProvider, endless]) {
      const otel = otelObserver({ tracerProvider, onError });
      const adapter = createTestAdapter({ shapeModes: { command: 'sync' } });
      const runtime = createRuntime({
        state: createMemoryState(),
        adapters: [adapter],
        observers: [otel],
      });
      const handler = vi.fn(async () => ({ text: 'ok' }));
      runtime.onCommand('status', handler);
      expect(await adapter.command('status', '', { id: 'C1' })).toMatchObject({
        outcome: 'completed',
        response: { text: 'ok' },
      });
      expect(handler).toHaveBeenCalledTimes(1);
      expect(runtime.stats().observerFailures).toBe(0);
      await runtime.shutdown();
    }
    expect(onError.mock.calls.map(([e]) => (e as RecordingError).step)).toContain('aroundHandler');
  });
});

describe('bindRuntime', () => {
  const stats = (detachedInFlight: number, extra: Partial<RuntimeStats> = {}): RuntimeStats =>
    ({
      detachedInFlight,
      detachedHighWater: detachedInFlight,
      perTenantInFlight: {},
      syncInFlight: 0,
      parked: 0,
      received: 0,
      accepted: 0,
      outcomes: {},
      observerFailures: 0,
      shuttingDown: false,
      ...extra,
    }) as RuntimeStats;

  it('reads stats() once per collection and stops when unbound', async () => {
    const telemetry = createTelemetry();
    const otel = otelObserver({ meterProvider: telemetry.meterProvider });
    const runtime = {
      stats: vi.fn(() => stats(2)),
      options: createRuntime({ state: createMemoryState() }).options,
    };
    const unbind = otel.bindRuntime(runtime);
    expect(() => otel.bindRuntime(runtime)).toThrow(AlreadyBoundError);
    await telemetry.points();
    expect(runtime.stats).toHaveBeenCalledTimes(1);
    unbind();
    unbind();
    await telemetry.points();
    expect(runtime.stats).toHaveBeenCalledTimes(1);
    expect(() => otel.bindRuntime(runtime)).not.toThrow();
    await telemetry.shutdown();
  });

  it("reports the core's detachedHighWater as the high-water gauge", async () => {
    const telemetry = createTelemetry();
    const options = createRuntime({ state: createMemoryState() }).options;
    const values = [stats(4, { detachedHighWater: 7 }), stats(1, { detachedHighWater: 9 })];
    const otel = otelObserver({ meterProvider: telemetry.meterProvider });
    otel.bindRuntime({ stats: () => values.shift() ?? stats(0), options });
    const highWater = async () => (await telemetry.pointsOf(METRICS.detachedHighWater))[0]?.value;
    expect(await highWater()).toBe(7);
    expect(await highWater()).toBe(9);
    await telemetry.shutdown();
  });

  it('rejects something that is not a runtime', () => {
    expect(() => otelObserver().bindRuntime({} as never)).toThrow(TypeError);
  });
});
