/**
 * The metric, span and attribute names `@rt/otel` emits: one place, mirrored by the table in the
 * package README. Names follow OpenTelemetry conventions (dot-separated, durations in seconds);
 * the Prometheus exporter turns `rt.deliveries.finished` into `rt_deliveries_finished_total`.
 */

/** Metric instrument names. */
export const METRICS = Object.freeze({
  deliveriesReceived: 'rt.deliveries.received',
  deliveriesFinished: 'rt.deliveries.finished',
  admissionRejected: 'rt.admission.rejected',
  dispatchDuration: 'rt.dispatch.duration',
  handlerDuration: 'rt.handler.duration',
  lockConflicts: 'rt.lock.conflicts',
  leaseLosses: 'rt.lease.losses',
  preludeErrors: 'rt.prelude.errors',
  stateErrors: 'rt.state.errors',
  adapterNotices: 'rt.adapter.notices',
  detachedInFlight: 'rt.detached.in_flight',
  detachedHighWater: 'rt.detached.high_water',
  parked: 'rt.parked',
  syncInFlight: 'rt.sync.in_flight',
  tenantInFlight: 'rt.tenant.in_flight',
});

/** Span names. */
export const SPANS = Object.freeze({
  delivery: 'rt.delivery',
  prelude: 'rt.prelude',
  handler: 'rt.handler',
});

/** Attribute keys on metric points and spans. None ever carries payload, text or user content. */
export const ATTR = Object.freeze({
  adapter: 'rt.adapter',
  tenant: 'rt.tenant',
  shape: 'rt.shape',
  kind: 'rt.kind',
  outcome: 'rt.outcome',
  reason: 'rt.reason',
  mode: 'rt.dispatch_mode',
  strategy: 'rt.strategy',
  eventId: 'rt.event.id',
  operation: 'rt.state.operation',
  notice: 'rt.notice',
  handlerStatus: 'rt.handler.status',
  supersededBy: 'rt.superseded_by',
  lockConflicts: 'rt.lock.conflicts',
  errorType: 'error.type',
});

/** The tenant label every tenant beyond the cardinality bound shares. */
export const OTHER_TENANT = 'other';

/** Histogram bucket boundaries in seconds, from 5 ms to 5 min (detached handlers run long). */
export const DURATION_BUCKETS_S: readonly number[] = Object.freeze([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300,
]);

/** The instrumentation scope name passed to `getMeter` and `getTracer`. */
export const SCOPE_NAME = '@rt/otel';
