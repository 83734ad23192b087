import type { Handler, Observation, Observer, Runtime } from '@rt/core';
import { DeliveryTracker } from './delivery-tracker.js';
import { AlreadyBoundError, RecordingError } from './errors.js';
import { RtMetrics } from './metrics.js';
import { type OtelObserverOptions, resolveOtelObserverOptions } from './options.js';
import { tracedHandler } from './traced-handler.js';
import { RtTraces } from './traces.js';

/** What `bindRuntime` reads: a runtime's `stats()` and its resolved strategy. */
export type BindableRuntime = Pick<Runtime, 'stats' | 'options'>;

/**
 * An rt `Observer` that records OpenTelemetry metrics and spans, with two helpers. Pass it in
 * `createRuntime({ observers: [otel] })`, then call `otel.bindRuntime(runtime)` once for the
 * observable gauges. It never throws and never waits: a failing meter, tracer or exporter is
 * reported to `onError` and dispatch carries on.
 */
export interface OtelObserver extends Observer {
  /**
   * Registers the observable gauges (`rt.detached.in_flight`, `rt.detached.high_water`,
   * `rt.parked`, `rt.sync.in_flight`, `rt.tenant.in_flight`) against `runtime.stats()`, read once
   * per metric collection, and tags spans with the runtime's strategy. Returns the function that
   * unregisters them. Throws `AlreadyBoundError` while another runtime is bound.
   */
  bindRuntime(runtime: BindableRuntime): () => void;
  /**
   * Wraps a handler so it runs inside an `rt.handler` span, child of its delivery span: the
   * handler's own outbound calls (HTTP, database, ...) nest under the delivery. Also measures
   * `rt.handler.duration` exactly. The handler runs once whatever the tracing does; what it
   * returns or throws passes through unchanged. Returns `handler` itself when no provider is set.
   */
  traced<Payload = unknown>(handler: Handler<Payload>): Handler<Payload>;
}

/**
 * Creates the observer. With neither `meterProvider` nor `tracerProvider` set it does nothing and
 * allocates nothing per observation. Throws `TypeError`/`RangeError` for bad options.
 */
export function otelObserver(options: OtelObserverOptions = {}): OtelObserver {
  const resolved = resolveOtelObserverOptions(options);
  const report = (step: string, error: unknown): void => {
    try {
      resolved.onError(new RecordingError(step, error));
    } catch {
      // The error hook is contained too: recording must never reach dispatch.
    }
  };
  const metrics = build('meter', report, () =>
    resolved.meterProvider
      ? new RtMetrics(resolved.meterProvider, resolved.tenantCardinality)
      : undefined,
  );
  const traces = build('tracer', report, () =>
    resolved.tracerProvider
      ? new RtTraces(resolved.tracerProvider, resolved.recordErrorMessages, resolved.traceUnrouted)
      : undefined,
  );
  let bound: BindableRuntime | undefined;
  const bindRuntime = (runtime: BindableRuntime): (() => void) => {
    if (typeof runtime?.stats !== 'function') {
      throw new TypeError('bindRuntime needs a runtime (with stats())');
    }
    if (bound) throw new AlreadyBoundError();
    bound = runtime;
    if (traces) traces.strategy = runtime.options?.concurrency?.strategy;
    let unbindGauges = () => {};
    try {
      if (metrics) {
        unbindGauges = metrics.bindGauges(
          () => runtime.stats(),
          (error) => report('gauges', error),
        );
      }
    } catch (error) {
      report('bindRuntime', error);
    }
    let unbound = false;
    return () => {
      if (unbound) return;
      unbound = true;
      bound = undefined;
      if (traces) traces.strategy = undefined;
      try {
        unbindGauges();
      } catch (error) {
        report('unbind', error);
      }
    };
  };

  if (!metrics && !traces) {
    const observer: Observer = () => {};
    return Object.assign(observer, {
      bindRuntime,
      traced: <Payload>(handler: Handler<Payload>) => handler,
    });
  }

  const tracker = new DeliveryTracker(metrics, traces);
  const observe = (o: Observation): void => {
    try {
      tracker.observe(o);
    } catch (error) {
      report(o.type, error);
    }
  };
  const traced = <Payload>(handler: Handler<Payload>): Handler<Payload> =>
    tracedHandler(handler, tracker, report);
  return Object.assign(observe, { bindRuntime, traced });
}

function build<T>(
  step: string,
  report: (step: string, error: unknown) => void,
  make: () => T,
): T | undefined {
  try {
    return make();
  } catch (error) {
    report(step, error);
    return undefined;
  }
}
