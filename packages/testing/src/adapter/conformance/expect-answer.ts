import type { Observation } from '@rt/core';
import { expect } from 'vitest';
import type { ExpectedAnswer, ExpectedRefusal, ReceivedAnswer } from './conformance-options.js';
import { HOLD_SHAPE, type Session } from './conformance-session.js';

/** Asserts `answer` has the expected status, then runs the row's own check. */
export async function expectAnswer(
  answer: ReceivedAnswer,
  expected: ExpectedAnswer,
): Promise<void> {
  expect(answer.status, `status of the answer ${JSON.stringify(answer.text)}`).toBe(
    expected.status,
  );
  await expected.check?.(answer);
}

/** Asserts the platform calls a refusal caused: the row's `followUp`, or none at all. */
export async function expectFollowUp(session: Session, expected: ExpectedRefusal): Promise<void> {
  const calls = await session.bot.platformCalls();
  if (expected.followUp === undefined) {
    expect(calls, 'platform calls after a refusal whose row expects none').toEqual([]);
    return;
  }
  await expected.followUp(calls);
}

/** The id of the event the session's first `admission_rejected` with `reason` is about. */
export async function rejectedEventId(
  session: Session,
  reason: 'capacity' | 'shutdown',
): Promise<string> {
  const rejected = await session.observed(
    (o) => o.type === 'admission_rejected' && o.reason === reason,
  );
  return (rejected as Extract<Observation, { type: 'admission_rejected' }>).event.id;
}

/**
 * Sends `payload` validly signed and asserts it was accepted as `expected` says and handled:
 * the next delivery to finish (the suite's held ones aside) ends `completed`, never `duplicate`,
 * and the handler ran once more. (Events are not matched by id: an adapter may give every
 * delivery of a shape its own id, as Slack does for suggestions.)
 */
export async function expectAcceptedAndHandled(
  session: Session,
  payload: unknown,
  expected: ExpectedAnswer,
): Promise<void> {
  const from = session.observations.length;
  const handled = session.handled.length;
  await expectAnswer(await session.send(payload, 'valid'), expected);
  const finished = await session.observed(
    (o) => o.type === 'dispatch_finished' && o.event.shape !== HOLD_SHAPE,
    from,
  );
  expect((finished as Extract<Observation, { type: 'dispatch_finished' }>).outcome).toBe(
    'completed',
  );
  expect(session.handled.length, 'handler runs').toBe(handled + 1);
}
