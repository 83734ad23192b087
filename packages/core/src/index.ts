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
export type {
  ContextActions,
  EphemeralTarget,
  PostTarget,
} from './conversation/actions.js';
export {
  type ActionElement,
  type ActionsElement,
  actions,
  type ButtonElement,
  button,
  type Card,
  type CardElement,
  type ContextElement,
  card,
  context,
  type DividerElement,
  divider,
  type FieldsElement,
  fields,
  type ImageElement,
  image,
  type LinkButtonElement,
  linkButton,
  option,
  type SectionElement,
  type SelectElement,
  type SelectOption,
  section,
  select,
} from './conversation/card.js';
export {
  type Form,
  type FormErrors,
  type FormField,
  form,
  formErrors,
  type SelectField,
  selectField,
  type TextField,
  textField,
} from './conversation/form.js';
export {
  bold,
  code,
  codeBlock,
  escapeText,
  italic,
  link,
  list,
  mentionChannel,
  mentionUser,
  quote,
  strike,
} from './conversation/markdown.js';
export { isCard, type Message } from './conversation/message.js';
export type {
  SubscribeOptions,
  ThreadCallOptions,
  ThreadContext,
  ThreadStateHandle,
  ThreadStateWriteOptions,
} from './conversation/thread-context.js';
export { threadKeyOf } from './conversation/thread-key.js';
export { THREAD_DEFAULTS, type ThreadDefaults } from './conversation/thread-options.js';
export type { DispatchOptions, DispatchResult } from './dispatch/dispatch-result.js';
export {
  AdmissionRejectedError,
  type AdmissionRejectionReason,
  type ConversationActionName,
  DetachTimeoutError,
  hasErrorCode,
  InvalidEventError,
  MessageLimitError,
  NotInThreadError,
  PayloadTooLargeError,
  PreemptedError,
  PreludeError,
  RtError,
  ShutdownError,
  StaleFenceError,
  StateCapabilityMissingError,
  StateClosedError,
  StateUnavailableError,
  StreamInterruptedError,
  StreamRateLimitedError,
  StreamUnfinishedError,
  StreamUnsupportedError,
  ThreadStateConflictError,
  ThreadStateSerializationError,
  ThreadStateTooLargeError,
  UnfencedWriteError,
  UnsupportedActionError,
} from './errors.js';
export type { DeliveryRetry, EventKind, EventRef, RtEvent } from './event/event.js';
export { eventRef } from './event/event.js';
export { type FetchHandler, toNodeListener } from './http/node-listener.js';
export { type LockScope, scopeKeyOf } from './locks/lock-scope.js';
export {
  DEFAULT_LOG_OBSERVER_OPTIONS,
  type LogObserverOptions,
  logObserver,
} from './observe/default-logger.js';
export {
  type HandlerInstrumentation,
  hasHandlerInstrumentation,
} from './observe/handler-instrumentation.js';
export {
  createStderrLogger,
  type LogFields,
  type LogStream,
  type RtLogger,
  type StderrLoggerOptions,
} from './observe/logger.js';
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
