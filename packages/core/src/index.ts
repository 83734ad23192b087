export type {
  Adapter,
  HistoryMessage,
  HistoryReader,
  OutboundMessage,
  PostedMessage,
  RuntimeHandle,
} from './adapter/adapter.js';
export { isHistoryReader } from './adapter/adapter.js';
export type { DispatchOptions, DispatchResult } from './dispatch/dispatch-result.js';
export {
  AdmissionRejectedError,
  type AdmissionRejectionReason,
  DetachTimeoutError,
  hasErrorCode,
  InvalidEventError,
  PayloadTooLargeError,
  PreemptedError,
  PreludeError,
  RtError,
  ShutdownError,
  StateClosedError,
  StateUnavailableError,
} from './errors.js';
export type { DeliveryRetry, EventKind, EventRef, RtEvent } from './event/event.js';
export { eventRef } from './event/event.js';
export { type FetchHandler, toNodeListener } from './http/node-listener.js';
export {
  type BodyRead,
  DEFAULT_BODY_LIMIT_BYTES,
  discardBody,
  readBodyUpTo,
  readBodyWithLimit,
} from './http/read-body.js';
export { discardNodeBody, readNodeBody } from './http/read-node-body.js';
export { type LockScope, scopeKeyOf } from './locks/lock-scope.js';
export {
  type HandlerInstrumentation,
  hasHandlerInstrumentation,
} from './observe/handler-instrumentation.js';
export type {
  DispatchMode,
  Observation,
  ObservationType,
  Observer,
} from './observe/observation.js';
export {
  ACCEPTED_OUTCOMES,
  type FinishedDelivery,
  type HandledResult,
  OUTCOMES,
  type Outcome,
} from './outcomes/outcome.js';
export type { Handler, HandlerContext, HeldLockInfo } from './routing/handler.js';
export type { Pattern, Route } from './routing/route.js';
export { createRuntime } from './runtime/create-runtime.js';
export {
  type AdapterDispatchModes,
  type ConcurrencyOptions,
  type CreateRuntimeOptions,
  DEFAULT_CONCURRENCY,
  DEFAULT_RUNTIME_OPTIONS,
  type ResolvedRuntimeOptions,
  type RuntimeOptions,
  type StrategyName,
} from './runtime/options.js';
export type { Runtime, RuntimeStats, ShutdownOptions } from './runtime/runtime-types.js';
export {
  installationMarkKey,
  MAX_MARK_KEYS,
  markKeyInstallation,
} from './state/mark-keys.js';
export { ReleaseWaiters, type ReleaseWaitersOptions } from './state/release-waiters.js';
export {
  hasLockWakeups,
  hasMultiKeyMark,
  type Lease,
  type LockWakeups,
  type MultiKeyMark,
  type State,
} from './state/state.js';
export {
  assertKey,
  assertLease,
  assertMarkKeys,
  assertTimeoutMs,
  assertTtlMs,
} from './state/validate-arguments.js';
