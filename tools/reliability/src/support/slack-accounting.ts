import { ACCEPTED_OUTCOMES, type Observation, type RuntimeStats } from '@rt/core';
import type { HandledLedger } from './handled-ledger.js';
import type { SlackFlood } from './slack-flood.js';

/** The figures of a Slack flood, for assertions and docs/reliability.md. */
export interface SlackFloodFigures {
  readonly sent: number;
  readonly eventDeliveries: number;
  readonly retried: number;
  readonly admitted: number;
  readonly rejected: number;
  /** Deliveries refused because the State failed in the prelude (503 / unavailable). */
  readonly preludeErrors: number;
  readonly rejectedByReason: Readonly<Record<string, number>>;
  readonly handled: number;
  readonly eventsAcked: number;
  readonly commandsAccepted: number;
  readonly commandsBusy: number;
  readonly exhausted: number;
  readonly owedRetry: number;
  /** Acknowledged events lost to a lost State reply (counted only with `lostStateReplies`). */
  readonly crashClassLost: number;
}

/** The busy (or unavailable) answer of a refused slash command, as the adapter writes it. */
function isBusyAnswer(body: string, text: string): boolean {
  try {
    const parsed = JSON.parse(body) as { response_type?: unknown; text?: unknown };
    return parsed.response_type === 'ephemeral' && parsed.text === text;
  } catch {
    return false;
  }
}

/**
 * Checks a finished flood (Slack has nothing left to send, the runtime has shut down) against the
 * contract and returns what is wrong, one sentence per violation, plus the figures:
 * - every event was handled exactly once, or is still owed a retry (a stop cancelled it); none
 *   exhausted, none answered `x-slack-no-retry`;
 * - every acknowledged event was handled (nothing acked was lost), no event twice;
 * - every command was either accepted (empty 200, handled once) or refused visibly (200 with the
 *   busy text, not handled);
 * - the runtime's own books balance: admitted = sum of accepted outcomes = handler entries, every
 *   refusal observed (`admission_rejected` + `prelude_error` = their outcomes = 503s + busy or
 *   unavailable answers), superseded deliveries seen by their survivor.
 */
export function checkSlackFlood(input: {
  readonly flood: SlackFlood;
  readonly handled: HandledLedger;
  readonly stats: RuntimeStats;
  readonly observations: readonly Observation[];
  /** Texts of a visible refusal (busy; unavailable when the State failed). */
  readonly refusalTexts: readonly string[];
  /**
   * Deliveries answered 503 at the ack deadline before their (late) mark: Slack's retry then
   * meets the mark. Default 0: every 503 is an observed refusal.
   */
  readonly answeredAtDeadline?: number;
  /**
   * Count, instead of flagging, acknowledged events lost to the documented crash class of a lost
   * State reply: a dedupe mark that landed in Redis after its reply was lost or late, so the
   * delivery was refused (`prelude_error`, 503) and Slack's retry met the mark (`duplicate`), with
   * no accepted outcome ever. Default false: any unhandled acknowledged event is a violation.
   */
  readonly lostStateReplies?: boolean;
}): { violations: string[]; figures: SlackFloodFigures } {
  const { flood, handled, stats, observations, refusalTexts } = input;
  const violations: string[] = [];
  const idsOf = (pick: (o: Observation) => boolean) =>
    new Set(observations.flatMap((o) => (pick(o) && 'event' in o ? [o.event.id] : [])));
  const preludeIds = idsOf((o) => o.type === 'prelude_error');
  const duplicateIds = idsOf((o) => o.type === 'dispatch_finished' && o.outcome === 'duplicate');
  const acceptedIds = idsOf(
    (o) =>
      o.type === 'dispatch_finished' &&
      (ACCEPTED_OUTCOMES as readonly string[]).includes(o.outcome),
  );
  const crashClass: string[] = [];
  let owedRetry = 0;
  for (const [id, entry] of flood.events) {
    const count = handled.counts.get(id) ?? 0;
    if (entry.status === 'retry-cancelled' || entry.status === 'awaiting-retry') {
      owedRetry += 1;
      if (count > 1) violations.push(`event ${id} owed a retry was handled ${count} times`);
      continue;
    }
    if (entry.status !== 'acked') {
      violations.push(`event ${id} ended ${entry.status} (handled ${count})`);
      continue;
    }
    if (
      count === 0 &&
      input.lostStateReplies === true &&
      preludeIds.has(id) &&
      duplicateIds.has(id) &&
      !acceptedIds.has(id)
    ) {
      crashClass.push(id);
      continue;
    }
    if (count !== 1) violations.push(`acknowledged event ${id} was handled ${count} times`);
  }
  let commandsAccepted = 0;
  let commandsBusy = 0;
  for (const [id, entry] of flood.commands) {
    const count = handled.counts.get(id) ?? 0;
    const ack = entry.ack;
    if (ack === undefined || ack.kind !== 'response' || ack.status !== 200) {
      violations.push(`command ${id} was not answered 200: ${JSON.stringify(ack)}`);
    } else if (ack.body === '') {
      commandsAccepted += 1;
      if (count !== 1) violations.push(`accepted command ${id} was handled ${count} times`);
    } else if (refusalTexts.some((text) => isBusyAnswer(ack.body, text))) {
      commandsBusy += 1;
      if (count !== 0) violations.push(`command ${id} refused as busy was handled ${count} times`);
    } else {
      violations.push(`command ${id} got neither an empty ack nor the busy text: ${ack.body}`);
    }
  }
  const accepted = ACCEPTED_OUTCOMES.reduce((sum, outcome) => sum + stats.outcomes[outcome], 0);
  if (stats.accepted !== accepted) {
    violations.push(
      `runtime accepted ${stats.accepted} but recorded ${accepted} accepted outcomes`,
    );
  }
  if (handled.total !== stats.accepted) {
    violations.push(
      `handlers ran ${handled.total} times for ${stats.accepted} accepted deliveries`,
    );
  }
  // Superseded deliveries reach their survivor's handler in `ctx.skipped`: seen, not lost.
  const seen = stats.outcomes.completed + stats.outcomes.superseded;
  if (seen !== stats.accepted) {
    violations.push(
      `${stats.accepted - seen} accepted deliveries neither completed nor superseded`,
    );
  }
  const rejections = observations.filter((o) => o.type === 'admission_rejected');
  const rejectedByReason: Record<string, number> = {};
  for (const o of rejections) rejectedByReason[o.reason] = (rejectedByReason[o.reason] ?? 0) + 1;
  if (rejections.length !== stats.outcomes['admission-rejected']) {
    violations.push(
      `${rejections.length} admission_rejected observations, ${stats.outcomes['admission-rejected']} outcomes`,
    );
  }
  const preludeErrors = observations.filter((o) => o.type === 'prelude_error').length;
  if (preludeErrors !== stats.outcomes['prelude-error']) {
    violations.push(
      `${preludeErrors} prelude_error observations, ${stats.outcomes['prelude-error']} outcomes`,
    );
  }
  const refusals = rejections.length + preludeErrors + (input.answeredAtDeadline ?? 0);
  if (refusals !== flood.counters.rejected503 + commandsBusy) {
    violations.push(
      `${refusals} refusals observed, Slack saw ${flood.counters.rejected503} 503s and ${commandsBusy} busy answers`,
    );
  }
  if (flood.counters.noRetry > 0) violations.push(`${flood.counters.noRetry} x-slack-no-retry`);
  if (stats.detachedInFlight !== 0) violations.push(`${stats.detachedInFlight} slots still held`);
  return {
    violations,
    figures: {
      sent: flood.counters.sent,
      eventDeliveries: flood.counters.eventDeliveries,
      retried: flood.counters.retried,
      admitted: stats.accepted,
      rejected: rejections.length,
      preludeErrors,
      rejectedByReason,
      handled: handled.total,
      eventsAcked: flood.counters.eventsAcked,
      commandsAccepted,
      commandsBusy,
      exhausted: flood.counters.exhausted,
      owedRetry,
      crashClassLost: crashClass.length,
    },
  };
}
