import type { RtEvent } from '@rt/core';
import { type AckClock, type RuntimeHandle, startAckClock } from '@rt/core/adapter';
import { answerInstalled } from '../installs/installation-gate.js';
import type { Normalized } from '../normalize/normalized.js';
import type { SlackInbound } from '../parse/classify-payload.js';
import { type Answer, EMPTY_ACK, jsonAck, type SlackAck } from '../respond/answer.js';
import { viewSubmissionRefusal } from '../respond/view-submission-refusal.js';
import type { DeliveryFacts, SlackCoreDeps } from './deps.js';
import { dispatchAndAnswer } from './dispatch-answer.js';
import { normalizeInbound } from './normalize-inbound.js';

/**
 * The transport-neutral Slack core: answers one verified, classified payload. Order:
 * `url_verification` (its challenge echoed as JSON); before `attach` (`retry`, reason
 * `not attached`); `app_rate_limited` (`empty`, and an `adapter_notice`); normalisation (a payload
 * it cannot read is `invalid`, an ignored event `empty`, a submitted busy placeholder the view
 * error); then the installation check when an `installations` source is set (`answerInstalled`),
 * dispatch and the shape-aware answer on the kit (`dispatchAndAnswer`), out by `ackDeadlineMs`
 * after `facts.receivedAt` at the latest (on the adapter's `clock`). A busy-signal follow-up is handed to the
 * follow-up runner when the acknowledgement is built and is sent on a later turn, so it never
 * delays the transport writing the acknowledgement. What needs no dispatch (a challenge, an
 * ignored event, a payload it cannot read) is answered at once: the acknowledgement itself, so a
 * transport writes it without a promise hop; otherwise the promise of it. Throws or rejects only
 * on a bug (the transport answers it as an unexpected failure).
 */
export function answerSlackPayload(
  deps: SlackCoreDeps,
  inbound: SlackInbound,
  facts: DeliveryFacts,
): SlackAck | Promise<SlackAck> {
  const { options } = deps;
  if (inbound.type === 'url_verification') return jsonAck({ challenge: inbound.challenge });
  const runtime = deps.runtime();
  if (runtime === undefined) return { kind: 'retry', reason: 'not attached' };
  if (inbound.type === 'app_rate_limited') {
    deps.notice('app_rate_limited', {
      teamId: inbound.body.team_id,
      apiAppId: inbound.body.api_app_id,
      minuteRateLimited: inbound.body.minute_rate_limited,
    });
    return EMPTY_ACK;
  }
  let normalized: Normalized;
  try {
    normalized = normalizeInbound(inbound, {
      adapter: options.name,
      receivedAt: facts.receivedAt,
      retry: facts.retry,
      botUserId: options.botUserId,
      botId: options.botId,
      ignoredMessageSubtypes: options.ignoredMessageSubtypes,
      mentionAndMessage: options.mentionAndMessage,
    });
  } catch (error) {
    return { kind: 'invalid', reason: (error as Error).message };
  }
  if (normalized.type === 'ignore') return EMPTY_ACK;
  if (normalized.type === 'busy-option') {
    return viewSubmissionRefusal(normalized.blockId, options.busyText);
  }
  const { event } = normalized;
  const clock =
    facts.clock ??
    startAckClock({
      ackDeadlineMs: options.ackDeadlineMs,
      syncDeadlineMs: options.syncDeadlineMs,
      receivedAt: facts.receivedAt,
      now: options.clock,
    });
  return deps.answering.track(answerEvent(deps, runtime, event, clock, facts.clock === undefined));
}

/**
 * The acknowledgement of a normalised event (`answerInstalled`; without an `installations`
 * source that is `dispatchAndAnswer` itself, called straight), its busy-signal follow-up handed
 * to the follow-up runner; a clock started here (`owned`) is disposed once the answer is ready.
 */
function answerEvent(
  deps: SlackCoreDeps,
  runtime: RuntimeHandle,
  event: RtEvent,
  clock: AckClock,
  owned: boolean,
): Promise<SlackAck> {
  let answering: Promise<Answer>;
  try {
    answering =
      deps.options.installations === undefined
        ? dispatchAndAnswer(deps, runtime, event, clock)
        : answerInstalled(deps, runtime, event, clock);
  } catch (error) {
    if (owned) clock.dispose();
    return Promise.reject(error);
  }
  // One reaction on either side (no `finally` and its two extra promises per delivery).
  return answering.then(
    (answer) => {
      if (owned) clock.dispose();
      if (answer.followUp !== undefined) deps.followUps.start({ event, followUp: answer.followUp });
      return answer.ack;
    },
    owned
      ? (error: unknown) => {
          clock.dispose();
          throw error;
        }
      : undefined,
  );
}
