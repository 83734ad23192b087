import type { MeterProvider, TracerProvider } from '@opentelemetry/api';

/** Options of `otelObserver`. */
export interface OtelObserverOptions {
  /**
   * Where metrics go. Omitted: no metrics at all (nothing is recorded or allocated for them).
   * Pass `metrics.getMeterProvider()` from `@opentelemetry/api` to use the global provider.
   */
  readonly meterProvider?: MeterProvider | undefined;
  /**
   * Where spans go. Omitted: no spans, and the observer carries no `aroundHandler`. Pass
   * `trace.getTracerProvider()` to use the global one. Context propagation into handlers (their
   * own spans nesting under `rt.handler`) needs a context manager, e.g.
   * `AsyncLocalStorageContextManager` from `@opentelemetry/context-async-hooks`.
   */
  readonly tracerProvider?: TracerProvider | undefined;
  /**
   * How many tenants get their own `rt.tenant` label; every other tenant is `other`.
   * `rt.admission.rejected` gives labels to the first N tenants found hot (rejected at least
   * `TENANT_LABEL_AFTER` times, by a bounded sketch), sticky for the process's life so series
   * never churn; `rt.tenant.in_flight` reports the N hottest tenants at each collection.
   * Integer >= 0. Default 20.
   */
  readonly tenantCardinality?: number | undefined;
  /** Also make a span for deliveries no handler matched (`unrouted`). Default false: they are noise. */
  readonly traceUnrouted?: boolean | undefined;
  /**
   * Put an outcome error's message and stack on its span (`exception.message`,
   * `exception.stacktrace`). Default false: messages may quote user input, so only the error's
   * type (`error.type`: its `code`, else its `name`) is recorded.
   */
  readonly recordErrorMessages?: boolean | undefined;
  /**
   * Receives a `RecordingError` whenever a meter, tracer or processor throws. Default: ignore.
   * Whatever it throws is contained too.
   */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** The options with every default filled in. */
export interface ResolvedOtelObserverOptions {
  readonly meterProvider: MeterProvider | undefined;
  readonly tracerProvider: TracerProvider | undefined;
  readonly tenantCardinality: number;
  readonly traceUnrouted: boolean;
  readonly recordErrorMessages: boolean;
  readonly onError: (error: Error) => void;
}

/** The defaults of `OtelObserverOptions`. */
export const DEFAULT_OTEL_OBSERVER_OPTIONS = Object.freeze({
  tenantCardinality: 20,
  traceUnrouted: false,
  recordErrorMessages: false,
  onError: () => {},
}) satisfies Partial<ResolvedOtelObserverOptions>;

/** Fills defaults and validates; throws `TypeError` or `RangeError` naming the bad option. */
export function resolveOtelObserverOptions(
  options: OtelObserverOptions = {},
): ResolvedOtelObserverOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('otelObserver options must be an object');
  }
  const { meterProvider, tracerProvider } = options;
  if (meterProvider !== undefined && typeof meterProvider?.getMeter !== 'function') {
    throw new TypeError('meterProvider must be an OpenTelemetry MeterProvider (with getMeter)');
  }
  if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== 'function') {
    throw new TypeError('tracerProvider must be an OpenTelemetry TracerProvider (with getTracer)');
  }
  const tenantCardinality =
    options.tenantCardinality ?? DEFAULT_OTEL_OBSERVER_OPTIONS.tenantCardinality;
  if (!Number.isInteger(tenantCardinality) || tenantCardinality < 0) {
    throw new RangeError(
      `tenantCardinality must be an integer >= 0, got ${String(options.tenantCardinality)}`,
    );
  }
  for (const name of ['traceUnrouted', 'recordErrorMessages'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') {
      throw new TypeError(`${name} must be a boolean, got ${typeof options[name]}`);
    }
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    throw new TypeError('onError must be a function');
  }
  return {
    meterProvider,
    tracerProvider,
    tenantCardinality,
    traceUnrouted: options.traceUnrouted ?? DEFAULT_OTEL_OBSERVER_OPTIONS.traceUnrouted,
    recordErrorMessages:
      options.recordErrorMessages ?? DEFAULT_OTEL_OBSERVER_OPTIONS.recordErrorMessages,
    onError: options.onError ?? DEFAULT_OTEL_OBSERVER_OPTIONS.onError,
  };
}
