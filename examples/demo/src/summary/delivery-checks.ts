import { ACCEPTED_OUTCOMES } from '@rt/core';
import type { Invariant, InvariantInput } from './invariants.js';

/** Outcomes of an accepted delivery other than `completed`: each one is a lost answer. */
const ACCEPTED_NOT_COMPLETED = ACCEPTED_OUTCOMES.filter((outcome) => outcome !== 'completed');

/**
 * The run is evidence only if it ran to the end: every planned event, `/ask` and click was sent,
 * and Slack finished (each event acknowledged or out of retries), with no retry dropped by a
 * stop. Read from the simulator's ledger and the run's stop reason.
 */
export function wholePlanRan(input: InvariantInput): Invariant {
  const { config, ledger, stoppedEarly } = input;
  const c = ledger.counters;
  let unsettled = 0;
  for (const record of ledger.events.values()) {
    if (record.status === 'in-flight' || record.status === 'awaiting-retry') unsettled += 1;
  }
  const passed =
    stoppedEarly === undefined &&
    c.eventsSent === config.events &&
    c.commandsSent === config.commands &&
    c.clicksSent === config.clicks &&
    c.retriesCancelled === 0 &&
    unsettled === 0;
  return {
    name: 'the whole plan ran to the end',
    passed,
    detail:
      `sent ${c.eventsSent}/${config.events} events, ${c.commandsSent}/${config.commands} /ask, ` +
      `${c.clicksSent}/${config.clicks} clicks; ${c.retriesCancelled} retries cancelled by a stop, ` +
      `${unsettled} events unsettled` +
      (stoppedEarly === undefined ? '' : `; STOPPED EARLY: ${stoppedEarly}`),
  };
}

/**
 * Every planned event is either handled exactly once (exactly one reply in its thread, as the
 * simulated Web API recorded it) or still owed a retry: Slack holds a scheduled retry for it that
 * it will deliver. A finished run waits until Slack has nothing scheduled, so "owed" is 0 there;
 * a stop cancels scheduled retries, and a cancelled retry is not owed (the demo never saw its
 * outcome). Exhausted, cancelled, never-sent and acked-but-unanswered events fail the line.
 */
export function eventsHandledOnceOrOwed(input: InvariantInput): Invariant {
  const { config, ledger, tally } = input;
  const n = { once: 0, twice: 0, owed: 0, exhausted: 0, cancelled: 0, unanswered: 0 };
  for (const record of ledger.events.values()) {
    const replies = ledger.repliesTo(record);
    if (replies === 1) n.once += 1;
    else if (replies > 1) n.twice += 1;
    else if (record.status === 'awaiting-retry') n.owed += 1;
    else if (record.status === 'exhausted') n.exhausted += 1;
    else if (record.status === 'retry-cancelled') n.cancelled += 1;
    else n.unanswered += 1;
  }
  const unsent = config.events - ledger.events.size;
  const extra = [
    n.twice > 0 ? `${n.twice} answered twice` : '',
    n.unanswered > 0 ? `${n.unanswered} acked or in flight without a reply` : '',
  ].filter((text) => text !== '');
  return {
    name: 'every event handled exactly once or still owed a retry',
    passed: n.once + n.owed === config.events,
    detail:
      `${n.once}/${config.events} handled once (one reply in its thread, seen by the simulated ` +
      `Web API; the bot counts ${tally.handledCount('event')}), ${n.owed} still owed a scheduled ` +
      `retry, ${n.exhausted} exhausted (Slack would stop), ${n.cancelled} retries cancelled by a ` +
      `stop, ${unsent} never sent${extra.length > 0 ? `, ${extra.join(', ')}` : ''}`,
  };
}

/**
 * Nothing acknowledged was lost. From the simulator: every event Slack got a 2xx for has exactly
 * one reply in its thread, and every `/ask` or click acknowledged without a busy text got an
 * answer (or a late busy text) at its `response_url`. From the runtime and the handlers' wrapper:
 * accepted = completed = handler bodies entered = exited, none threw, no other outcome.
 */
export function nothingAckedAndLost(input: InvariantInput): Invariant {
  const { ledger, tally, outcomes, busyText } = input;
  let ackedEvents = 0;
  let lostEvents = 0;
  for (const record of ledger.events.values()) {
    if (record.status !== 'acked') continue;
    ackedEvents += 1;
    if (ledger.repliesTo(record) !== 1) lostEvents += 1;
  }
  let acceptedInvocations = 0;
  let lostInvocations = 0;
  for (const record of ledger.invocations.values()) {
    const ok = record.ack?.kind === 'response' && record.ack.status === 200;
    if (!ok || record.ackText === busyText) continue;
    acceptedInvocations += 1;
    if (record.responseTexts.length === 0) lostInvocations += 1;
  }
  const gauge = tally.handlers;
  const completed = outcomes.completed ?? 0;
  const otherEnds = ACCEPTED_NOT_COMPLETED.reduce((sum, o) => sum + (outcomes[o] ?? 0), 0);
  const passed =
    lostEvents === 0 &&
    lostInvocations === 0 &&
    otherEnds === 0 &&
    input.accepted === completed &&
    completed === gauge.entered &&
    gauge.entered === gauge.exited &&
    gauge.threw === 0;
  return {
    name: 'nothing acknowledged and lost',
    passed,
    detail:
      `${ackedEvents} events acked with 2xx, ${lostEvents} without exactly one thread reply; ` +
      `${acceptedInvocations} /ask+clicks acked without busy, ${lostInvocations} got nothing at ` +
      `their response_url; runtime accepted ${input.accepted} = completed ${completed} = handlers ` +
      `entered ${gauge.entered} = exited ${gauge.exited} (${gauge.threw} threw); ` +
      `failed/timed-out/dropped/shutdown ${otherEnds}`,
  };
}

/**
 * Nobody saw two answers: no thread got two replies and no invocation two answers (simulator),
 * no reply landed outside a mention's thread, and no handler finished twice for one id (bot).
 */
export function nothingHandledTwice(input: InvariantInput): Invariant {
  const { ledger, tally, busyText } = input;
  let threadsTwice = 0;
  for (const count of ledger.repliesPerThread.values()) if (count > 1) threadsTwice += 1;
  let answeredTwice = 0;
  for (const record of ledger.invocations.values()) {
    if (record.responseTexts.filter((t) => t !== busyText).length > 1) answeredTwice += 1;
  }
  let botTwice = 0;
  for (const map of Object.values(tally.handled)) {
    for (const count of map.values()) if (count > 1) botTwice += 1;
  }
  return {
    name: 'no event handled twice',
    passed:
      threadsTwice === 0 && answeredTwice === 0 && ledger.strayMessages === 0 && botTwice === 0,
    detail:
      `${threadsTwice} threads with two replies; ${answeredTwice} invocations answered twice; ` +
      `${ledger.strayMessages} messages outside a mention's thread; the bot finished ${botTwice} ` +
      `ids twice; runtime deduped ${input.outcomes.duplicate ?? 0} redeliveries`,
  };
}
