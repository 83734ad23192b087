import {
  type AdmissionRejectedError,
  type DispatchResult,
  type FinishedDelivery,
  hasErrorCode,
  type RtEvent,
  type RuntimeHandle,
} from '@rt/core';
import type { Answer } from '../respond/answer.js';
import { lateRefusalFor } from '../respond/late-refusal.js';
import { refusalFor } from '../respond/refusal.js';
import { answerForResult } from '../respond/result-answer.js';
import type { AckClock } from './ack-clock.js';
import { notice, type RequestHandlerDeps } from './request-deps.js';

/** What one dispatch produced: its answer, and its result when it resolved. */
interface Dispatched {
  readonly answer: Answer;
  readonly result?: DispatchResult;
}

/** The answer to a dispatch that threw: a refusal with busy or unavailable wording. */
function answerForError(deps: RequestHandlerDeps, event: RtEvent, error: unknown): Answer {
  const { busyText, unavailableText } = deps.options;
  if (hasErrorCode(error, 'RT_ADMISSION_REJECTED')) {
    const reason = (error as AdmissionRejectedError).reason;
    return refusalFor(event, reason === 'shutdown' ? unavailableText : busyText);
  }
  if (!hasErrorCode(error, 'RT_PRELUDE')) {
    notice(deps, 'dispatch_error', { shape: event.shape, eventId: event.id }, error);
  }
  return refusalFor(event, unavailableText);
}

/** Dispatches once and maps the outcome to an answer. Never rejects. */
async function dispatchOnce(
  deps: RequestHandlerDeps,
  runtime: RuntimeHandle,
  event: RtEvent,
  clock: AckClock,
): Promise<Dispatched> {
  try {
    const sync = runtime.modeFor(event) === 'sync';
    const result = await runtime.dispatch(event, sync ? { signal: clock.syncSignal } : undefined);
    return { result, answer: answerForResult(event, result, deps.options) };
  } catch (error) {
    return { answer: answerForError(deps, event, error) };
  }
}

/**
 * A deferred direct invocation was acknowledged, then dropped without running (its scope was
 * busy): tell the user it is busy, after the fact, or make it observable where nothing is visible.
 */
function signalIfUnrun(
  deps: RequestHandlerDeps,
  event: RtEvent,
  settled: Promise<FinishedDelivery>,
): void {
  void settled.then((finished) => {
    if (finished.outcome !== 'dropped') return;
    const followUp = lateRefusalFor(event, deps.options.busyText);
    if (followUp === undefined) {
      notice(deps, 'dropped_without_signal', { shape: event.shape, eventId: event.id });
      return;
    }
    deps.followUps.start(event, followUp);
  });
}

/**
 * Dispatches `event` and resolves its answer no later than `clock.expired` (the acknowledgement
 * deadline, counted from receipt). Sync dispatches get `clock.syncSignal`, which fires earlier.
 *
 * When the deadline comes first (a sync handler ignoring its signal, a State slow to mark), the
 * answer is the refusal with unavailable wording and an `adapter_notice` named
 * `ack_deadline_passed` records it; the dispatch goes on unobserved by this request. Its late
 * result starts no second answer and no busy signal, and it can never reject. If it turns out
 * accepted, the delivery is handled: for the Events API the 503 makes Slack retry, and the retry
 * meets the dedupe mark and is answered 200 `duplicate`, so the event is handled once; if the
 * mark failed or was refused instead, nothing is marked and the retry carries the event. A direct
 * invocation has no retry: its user saw the unavailable signal, yet a late-accepted handler runs.
 */
export async function dispatchAndAnswer(
  deps: RequestHandlerDeps,
  runtime: RuntimeHandle,
  event: RtEvent,
  clock: AckClock,
): Promise<Answer> {
  const first = await Promise.race([
    dispatchOnce(deps, runtime, event, clock),
    clock.expired.then(() => undefined),
  ]);
  if (first === undefined) {
    notice(deps, 'ack_deadline_passed', {
      shape: event.shape,
      eventId: event.id,
      deadlineMs: deps.options.ackDeadlineMs,
    });
    return refusalFor(event, deps.options.unavailableText);
  }
  if (first.result?.status === 'accepted' && event.shape !== 'event_callback') {
    signalIfUnrun(deps, event, first.result.settled);
  }
  return first.answer;
}
