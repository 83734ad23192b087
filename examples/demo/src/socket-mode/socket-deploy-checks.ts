import type { FakeEnvelope } from '@rt/testing/slack';
import type { Invariant } from '../summary/invariants.js';
import { seconds } from '../view/format.js';
import { interruptedOf } from './socket-bot.js';
import type { SocketRun } from './socket-checks.js';

/**
 * The envelopes the fake sent on A's connection after A's admission closed (`runtime.shutdown()`
 * was called with `aSentBeforeShutdown` envelopes on that connection), from the fake's record.
 */
function sentAfterAdmissionClosed(run: SocketRun): readonly FakeEnvelope[] {
  if (run.aSentBeforeShutdown === undefined) return [];
  return run.connectionA.sent.slice(run.aSentBeforeShutdown);
}

/** Ids of the events A acked on its connection, from the fake's record. */
function eventsAckedOnA(run: SocketRun): Set<string> {
  const ids = new Set<string>();
  for (const ack of run.fake.acks) {
    const id = ack.envelope?.payload.event_id;
    if (ack.connection === run.connectionA.id && ack.envelope?.type === 'events_api') {
      if (typeof id === 'string') ids.add(id);
    }
  }
  return ids;
}

/**
 * ADR 0007: an event that reaches a runtime whose admission has closed is left unacknowledged, so
 * Slack redelivers it to a live connection. From the fake's record: no `events_api` envelope sent
 * on A's connection after A's shutdown began was acked. From A: no event A refused at shutdown was
 * acked on A's connection either (it may have been sent just before the close and read after it).
 */
export function noEventAckedAfterAdmissionClosed(run: SocketRun): Invariant {
  const late = sentAfterAdmissionClosed(run).filter((e) => e.type === 'events_api');
  const lateAcked = late.filter((e) => run.fake.acksOf(e.envelope_id).length > 0).length;
  const ackedOnA = eventsAckedOnA(run);
  const refused = run.bots[0]?.refusedAtShutdown ?? new Set<string>();
  const refusedButAcked = [...refused].filter((id) => ackedOnA.has(id)).length;
  return {
    name: "no event acked after its runtime's admission closed",
    passed: run.aSentBeforeShutdown !== undefined && lateAcked === 0 && refusedButAcked === 0,
    detail:
      `${late.length} event envelopes sent on A's connection after its shutdown began, ${lateAcked} ` +
      `acked (the fake's record); ${refused.size} events A refused at shutdown, ${refusedButAcked} ` +
      'acked by A; the unacked ones were redelivered to B',
  };
}

/**
 * Direct invocations are never redelivered, so one that reaches a draining runtime is acked at
 * once with the busy payload, before the socket closes (ADR 0007). From the fake's record: every
 * slash command A acked after its shutdown began carried the refusal text in its ack payload, every
 * click A acked then got the refusal text (and no answer) at its `response_url`; and A's refused
 * slash commands equal those busy acks.
 */
export function busyAcksForDirectInvocations(run: SocketRun): Invariant {
  const n = { commands: 0, commandBusy: 0, clicks: 0, clickBusy: 0, unacked: 0 };
  for (const envelope of sentAfterAdmissionClosed(run)) {
    if (envelope.type === 'events_api') continue;
    const [ack] = run.fake.acksOf(envelope.envelope_id);
    if (ack === undefined) {
      n.unacked += 1;
      continue;
    }
    const record = run.ledger.invocations.get(String(envelope.payload.trigger_id));
    if (envelope.type === 'slash_commands') {
      n.commands += 1;
      if (run.busyTexts.includes(String(ack.payload?.text))) n.commandBusy += 1;
    } else {
      n.clicks += 1;
      const texts = record?.responseTexts ?? [];
      if (texts.length > 0 && texts.every((t) => run.busyTexts.includes(t))) n.clickBusy += 1;
    }
  }
  const a = run.bots[0];
  const refusedCommands = a?.refusedCommandsAtShutdown ?? 0;
  return {
    name: 'direct invocations reaching a draining runtime got busy acks',
    passed:
      n.commandBusy === n.commands && n.clickBusy === n.clicks && refusedCommands <= n.commandBusy,
    detail:
      `after A's shutdown began: ${n.commands} /ask acked by A, ${n.commandBusy} with the busy ` +
      `payload; ${n.clicks} clicks acked, ${n.clickBusy} then told busy at their response_url; ` +
      `${n.unacked} unread when A's socket closed; A refused ${refusedCommands} /ask at shutdown`,
  };
}

/**
 * The deploy itself: A's `runtime.shutdown()` resolved, A's socket was closed from A's side and
 * never reopened (auto-reconnect off), every event A refused at shutdown was handled by B, and
 * everything A accepted completed or was stopped when its grace ran out (outcome `shutdown`), each
 * of those having told its user (a stream's interrupted marker, the `/ask` or click notice).
 */
export function deployLostNothing(run: SocketRun): Invariant {
  const [a, b] = run.bots;
  const refused = a?.refusedAtShutdown ?? new Set<string>();
  const handledByB = [...refused].filter((id) => (b?.tally.handled.event.get(id) ?? 0) > 0).length;
  const closedBy = run.connectionA.closedWith?.by;
  const aStats = a?.runtime.stats();
  const stopped = aStats?.outcomes.shutdown ?? 0;
  const interrupted = a === undefined ? 0 : interruptedOf(a);
  const passed =
    b !== undefined &&
    run.aStoppedInMs !== undefined &&
    closedBy === 'client' &&
    a?.connections === 1 &&
    handledByB === refused.size &&
    aStats?.accepted === (aStats?.outcomes.completed ?? 0) + stopped &&
    stopped === interrupted;
  return {
    name: 'the deploy lost nothing (ADR 0007)',
    passed,
    detail:
      `A stopped in ${run.aStoppedInMs === undefined ? 'never' : seconds(run.aStoppedInMs)}, its ` +
      `socket closed by ${closedBy ?? 'nobody'}, opened ${a?.connections ?? 0} time(s); ` +
      `A accepted ${aStats?.accepted ?? 0} = completed ${aStats?.outcomes.completed ?? 0} + ` +
      `stopped after its ${seconds(run.deployGraceMs)} grace ${stopped} (${interrupted} told ` +
      `their user they were interrupted); ` +
      `${refused.size} events A refused at shutdown, ${handledByB} handled by B`,
  };
}
