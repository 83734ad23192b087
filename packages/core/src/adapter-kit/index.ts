/**
 * The adapter kit (`@rt/core/adapter`): what every platform adapter needs to answer within an
 * acknowledgement deadline (and the options that configure it), classify refusals, run bounded
 * follow-ups, emit typed notices, guard `attach` and sequence start/stop/drain; the one HTTP flow
 * with its two shells (native `node:http` listener, web-standard handler) and the per-turn batch
 * the native one writes its answers through (`runThisTurn`); the `RuntimeHandle` a
 * runtime gives an adapter, the dispatch result types, the HTTP body readers and the mark-key
 * form for secondary event identities.
 */
export type { Adapter, RuntimeHandle } from '../adapter/adapter.js';
export type { StreamReplier } from '../adapter/stream-replier.js';
export type {
  ActionCallOptions,
  ConversationActions,
  EphemeralTarget,
  PostTarget,
} from '../conversation/actions.js';
export { CONVERSATION_ACTIONS } from '../conversation/actions.js';
export { emojiCharacter, emojiName } from '../conversation/emoji.js';
export { type FormErrors, isFormErrors } from '../conversation/form.js';
export { checkId, MAX_ID_LENGTH } from '../conversation/ids.js';
export { checkLength, checkLimit, lengthOf } from '../conversation/limits.js';
export {
  type BlockNode,
  type InlineNode,
  type MarkdownSyntax,
  PLAIN_SYNTAX,
  parseInline,
  parseMarkdown,
  plainText,
  renderMarkdown,
} from '../conversation/markdown-parse.js';
export { cardFallback, isCard, isOutboundMessage, type Message } from '../conversation/message.js';
export type { DispatchOptions, DispatchResult } from '../dispatch/dispatch-result.js';
export { StreamRateLimitedError } from '../errors.js';
export {
  badRequestAnswer,
  type HttpAnswer,
  type HttpReply,
  jsonAnswer,
  METHOD_NOT_ALLOWED_ANSWER,
  OK_ANSWER,
  textAnswer,
  UNAUTHORIZED_ANSWER,
} from '../http/http-answer.js';
export {
  DISCARD_LIMIT_FACTOR,
  type HttpDeliveryFacts,
  type HttpEndpoint,
  type HttpNoticeName,
  type RequestCheck,
  serveHttp,
  UNSIGNED_PROBE_LIMIT_BYTES,
} from '../http/http-flow.js';
export { createNodeListener, type NodeListener } from '../http/node-shell.js';
export {
  type BodyRead,
  DEFAULT_BODY_LIMIT_BYTES,
  discardBody,
  readBodyUpTo,
  readBodyWithLimit,
} from '../http/read-body.js';
export { discardNodeBody, readNodeBody } from '../http/read-node-body.js';
export { type HttpRequestView, nodeRequestView, webRequestView } from '../http/request-view.js';
export { runThisTurn, type TurnTask } from '../http/turn-batch.js';
export { createFetchHandler, type FetchHandler, toResponse } from '../http/web-shell.js';
export { installationMarkKey } from '../state/mark-keys.js';
export type { CancelSource } from '../util/cancellation.js';
export {
  abortable,
  anySignal,
  delay,
  type TimeoutSignal,
  timeoutSignal,
} from '../util/signals.js';
export { type AckClock, type AckClockOptions, startAckClock } from './ack-clock.js';
export {
  AdapterLifecycle,
  type AdapterLifecycleOptions,
  type LifecycleTransport,
} from './adapter-lifecycle.js';
export { type AnswerDeliveryOptions, answerDelivery } from './answer-delivery.js';
export {
  type AnswerOptions,
  type AnswerPlatform,
  DEFAULT_ANSWER_OPTIONS,
  type ResolvedAnswerOptions,
  resolveAnswerOptions,
  resolveShapeModes,
} from './answer-options.js';
export { type AnswerWithinOptions, answerWithin } from './answer-within.js';
export { AttachGuard } from './attach-guard.js';
export { FollowUpRunner, type FollowUpRunnerOptions } from './follow-ups.js';
export { adapterNotice, type KitNoticeName, type NoticeEmitter, noticeEmitter } from './notices.js';
export {
  checkAbsoluteUrl,
  checkNonEmptyText,
  checkOptionsObject,
  checkPositiveInteger,
} from './option-checks.js';
export { PendingSet } from './pending-set.js';
export { classifyRefusal, type RefusalKind } from './refusal.js';
export {
  DEFAULT_STREAM_OPTIONS,
  resolveStreamOptions,
  type StreamOptions,
} from './stream/options.js';
export {
  type RunStreamOptions,
  runStream,
  type StreamResult,
  type StreamStatus,
} from './stream/run-stream.js';
export { openSource, type TextPull, type TextSource } from './stream/source.js';
export { type StreamReplyRun, streamReplyWith } from './stream/stream-reply.js';
export type { StreamEnd, StreamWriter, StreamWriterLimits } from './stream/writer.js';
