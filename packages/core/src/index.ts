/**
 * The bot author's entry point (`@rt/core`): the runtime and its options, routes and handler
 * types, events, outcomes, observations and errors. Adapter authors import the kit from
 * `@rt/core/adapter`; State authors import the State contract's helpers from `@rt/core/state`.
 */
export type {
  Adapter,
  HistoryMessage,
  HistoryReader,
  OutboundMessage,
  PostedMessage,
} from './adapter/adapter.js';
export { isHistoryReader } from './adapter/adapter.js';
export {
  isStreamReplier,
  type StreamReplier,
  type StreamReplyOptions,
} from './adapter/stream-replier.js';
export type { StreamOptions } from './adapter-kit/stream/options.js';
export type { TextSource } from './adapter-kit/stream/source.js';
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
  StreamInterruptedError,
  StreamRateLimitedError,
  StreamUnfinishedError,
  StreamUnsupportedError,
} from './errors.js';
export type { DeliveryRetry, EventKind, EventRef, RtEvent } from './event/event.js';
export { eventRef } from './event/event.js';
export { type FetchHandler, toNodeListener } from './http/node-listener.js';
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
export type { Lease, State } from './state/state.js';
