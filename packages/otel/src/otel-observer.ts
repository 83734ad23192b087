import { context } from '@opentelemetry/api';
import type {
  HandlerContext,
  HandlerInstrumentation,
  Observation,
  Observer,
  Runtime,
} from '@rt/core';
import { DeliveryTracker } from './delivery-tracker.js';
import { AlreadyBoundError, RecordingError } from './errors.js';
import { RtMetrics } from './metrics.js';
import { type OtelObserverOptions, resolveOtelObserverOptions } from './options.js';
import { RtTraces } from './traces.js';

/** What `bindRuntime` reads: a runtime's `stats()` and its resolved strategy. */
export type BindableRuntime = Pick<Runtime, 'stats' | 'options'>;

/**
 * An rt `Observer` that records OpenTelemetry metrics and spans. Pass it in
 * `createRuntime({ observers: [otel] })`, then call `otel.bindRuntime(runtime)` once for the
 * observable gauges. It never throws and never waits: a failing meter, tracer or exporter is
 * reported to `onError` and dispatch carries on.
 */
export interface OtelObserver extends Observer, Partial<HandlerInstrumentation> {
  /**
   * Registers the observable gauges (`rt.detached.in_flight`, `rt.detached.high_water`,
   * `rt.parked`, `rt.sync.in_flight`, `rt.tenant.in_flight`) against `runtime.stats()`, read once
   * per metric collection, and tags spans with the runtime's strategy. Returns the function that
   * unregisters them. Throws `AlreadyBoundError` while another runtime is bound.
   */
  bindRuntime(runtime: BindableRuntime): () => void;
  /**
   * Present only when a `tracerProvider` is set (the runtime detects it at `createRuntime` and
   * calls every handler through it; without it, handlers are called directly). Runs each handler
   * run in an `rt.handler` span, a child of its delivery span, made the active context, so the
   * handler's own outbound spans (HTTP, database, an LLM call) nest under the delivery. Calls
   * `run` exactly once and returns its result unchanged, whatever the tracing does.
   */
  readonly aroundHandler?: HandlerInstrumentation['aroundHandler'];
}

/**
 * Creates the observer. With neither `meterProvider` nor `tracerProvider` set it does nothing,
 * allocates nothing per observation and carries no `aroundHandler`. Throws `TypeError` or
 * `RangeError` for bad options.
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
    return Object.assign(observer, { bindRuntime });
  }

  const tracker = new DeliveryTracker(metrics, traces);
  const observe = (o: Observation): void => {
    try {
      tracker.observe(o);
    } catch (error) {
      report(o.type, error);
    }
  };
  if (!traces) return Object.assign(observe, { bindRuntime });
  return Object.assign(observe, {
    bindRuntime,
    aroundHandler: (ctx: HandlerContext, run: () => unknown) =>
      aroundHandler(tracker, report, ctx, run),
  });
}

/**
 * Runs `run` (the handler) once inside its `rt.handler` span's context and ends the span when
 * the handler settles. A failure to start the span runs the handler untraced; a failure to end
 * it is reported. Returns `run`'s result itself (the same promise), or rethrows what it threw.
 */
function aroundHandler(
  tracker: DeliveryTracker,
  report: (step: string, error: unknown) => void,
  ctx: HandlerContext,
  run: () => unknown,
): unknown {
  let handler: ReturnType<DeliveryTracker['beginHandler']>;
  try {
    handler = tracker.beginHandler(ctx);
  } catch (error) {
    report('aroundHandler', error);
  }
  if (!handler) return run();
  const span = handler;
  const end = (threw: boolean, error: unknown): void => {
    try {
      tracker.endHandler(span, threw, error);
    } catch (failure) {
      report('aroundHandler', failure);
    }
  };
  let result: unknown;
  try {
    result = context.with(span.context, run);
  } catch (error) {
    end(true, error);
    throw error;
  }
  if (!isThenable(result)) {
    end(false, undefined);
    return result;
  }
  result.then(
    () => end(false, undefined),
    (error: unknown) => end(true, error),
  );
  return result;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
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
