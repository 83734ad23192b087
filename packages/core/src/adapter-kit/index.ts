/**
 * The adapter kit (`@rt/core/adapter`): what every platform adapter needs to answer within an
 * acknowledgement deadline (and the options that configure it), classify refusals, run bounded
 * follow-ups and stop in bounded time; the `RuntimeHandle` a runtime gives an adapter, the dispatch
 * result types, the HTTP body readers and the mark-key form for secondary event identities.
 */
export type { Adapter, RuntimeHandle } from '../adapter/adapter.js';
export type { StreamReplier } from '../adapter/stream-replier.js';
export type { DispatchOptions, DispatchResult } from '../dispatch/dispatch-result.js';
export { StreamRateLimitedError } from '../errors.js';
export {
  type BodyRead,
  DEFAULT_BODY_LIMIT_BYTES,
  discardBody,
  readBodyUpTo,
  readBodyWithLimit,
} from '../http/read-body.js';
export { discardNodeBody, readNodeBody } from '../http/read-node-body.js';
export { installationMarkKey } from '../state/mark-keys.js';
export { type AckClock, type AckClockOptions, startAckClock } from './ack-clock.js';
export {
  type AnswerOptions,
  type AnswerPlatform,
  DEFAULT_ANSWER_OPTIONS,
  type ResolvedAnswerOptions,
  resolveAnswerOptions,
  resolveShapeModes,
} from './answer-options.js';
export { type AnswerWithinOptions, answerWithin } from './answer-within.js';
export { FollowUpRunner, type FollowUpRunnerOptions } from './follow-ups.js';
export { adapterNotice } from './notices.js';
export { checkNonEmptyText, checkPositiveInteger } from './option-checks.js';
export { PendingSet } from './pending-set.js';
export { classifyRefusal, type RefusalKind } from './refusal.js';
export {
  abortable,
  anySignal,
  delay,
  forwardAbort,
  type TimeoutSignal,
  timeoutSignal,
} from './signals.js';
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
