export { AlreadyBoundError, RecordingError, RtOtelError } from './errors.js';
export { ATTR, DURATION_BUCKETS_S, METRICS, OTHER_TENANT, SCOPE_NAME, SPANS } from './names.js';
export {
  DEFAULT_OTEL_OBSERVER_OPTIONS,
  type OtelObserverOptions,
  type ResolvedOtelObserverOptions,
} from './options.js';
export { type BindableRuntime, type OtelObserver, otelObserver } from './otel-observer.js';
export { TENANT_LABEL_AFTER } from './tenant-labels.js';
