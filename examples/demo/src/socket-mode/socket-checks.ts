import type { FakeSocketConnection, FakeSocketMode } from '@rt/testing/slack';
import { INTERRUPTED_NOTICE, STREAM_MARKERS } from '../bot/handlers.js';
import type { DemoConfig } from '../config/demo-config.js';
import type { SimulatorLedger } from '../simulator/ledger.js';
import type { WebApiCounters } from '../simulator/web-api.js';
import type { Invariant } from '../summary/invariants.js';
import { type StreamedReply, streamedRepliesHonest } from '../summary/stream-checks.js';
import { observedStreams } from '../summary/stream-replies.js';
import { mib } from '../view/format.js';
import { interruptedOf, type SocketBot } from './socket-bot.js';
import {
  busyAcksForDirectInvocations,
  deployLostNothing,
  noEventAckedAfterAdmissionClosed,
} from './socket-deploy-checks.js';

/** Everything a Socket Mode run measured, for the checks. */
export interface SocketRun {
  readonly config: DemoConfig;
  /** The simulator's record: events and their threads, invocations and their response_urls. */
  readonly ledger: SimulatorLedger;
  /** Slack's side: every envelope sent, every ack (with its connection), expired events. */
  readonly fake: FakeSocketMode;
  readonly webApi: WebApiCounters;
  /** Instance A, then B (when the deploy happened). */
  readonly bots: readonly SocketBot[];
  /** A's connection. */
  readonly connectionA: FakeSocketConnection;
  /**
   * How many envelopes the fake had sent on A's connection when A's `runtime.shutdown()` was
   * called (admission closes then); absent when the deploy never happened.
   */
  readonly aSentBeforeShutdown: number | undefined;
  /** How long A's `runtime.shutdown()` took; absent when it never resolved. */
  readonly aStoppedInMs: number | undefined;
  /** The busy and the unavailable texts: what a refused user sees. */
  readonly busyTexts: readonly string[];
  /** Peak `heapUsed` of the samples taken during the run. */
  readonly peakHeapUsedBytes: number;
  /** A's shutdown grace at the deploy. */
  readonly deployGraceMs: number;
  /** The streamed replies in the mentions' threads, from the simulated Web API's record. */
  readonly streamed: readonly StreamedReply[];
}

function sum(bots: readonly SocketBot[], read: (bot: SocketBot) => number): number {
  return bots.reduce((total, bot) => total + read(bot), 0);
}

/** Event ids with at least one acked envelope. */
function ackedEvents(run: SocketRun): Set<string> {
  const ids = new Set<string>();
  for (const ack of run.fake.acks) {
    const id = ack.envelope?.payload.event_id;
    if (ack.envelope?.type === 'events_api' && typeof id === 'string') ids.add(id);
  }
  return ids;
}

/**
 * Every planned event is handled exactly once across the deploy (one reply in its thread, as the
 * simulated Web API recorded it), or still owed a redelivery: the fake holds it unacked and will
 * send it again (a finished run waits until nothing is owed). An event the fake gave up on
 * (`expired`) or that got two replies fails the line.
 */
function everyEventOnceOrOwed(run: SocketRun, stoppedEarly: string | undefined): Invariant {
  const { ledger, config } = run;
  const acked = ackedEvents(run);
  const expired = new Set(run.fake.expired.map((e) => String(e.payload.event_id)));
  const n = { once: 0, twice: 0, owed: 0, expired: 0, unanswered: 0 };
  for (const record of ledger.events.values()) {
    const replies = ledger.repliesTo(record);
    if (replies === 1) n.once += 1;
    else if (replies > 1) n.twice += 1;
    else if (expired.has(record.id)) n.expired += 1;
    else if (!acked.has(record.id)) n.owed += 1;
    else n.unanswered += 1;
  }
  const unsent = config.events - ledger.events.size;
  return {
    name: 'every event handled exactly once or still owed a redelivery',
    passed: stoppedEarly === undefined && n.once + n.owed === config.events,
    detail:
      `${n.once}/${config.events} handled once across the deploy (one reply in their thread), ` +
      `${n.owed} still owed a redelivery (unacked, the fake will resend), ${n.expired} ran out of ` +
      `Slack's retries, ${n.twice} answered twice, ${n.unanswered} acked without a reply, ${unsent} ` +
      `never sent` +
      (stoppedEarly === undefined ? '' : `; STOPPED EARLY: ${stoppedEarly}`),
  };
}

function nothingAckedAndLost(run: SocketRun): Invariant {
  const acked = ackedEvents(run);
  let lost = 0;
  for (const id of acked) {
    const record = run.ledger.events.get(id);
    if (record === undefined || run.ledger.repliesTo(record) !== 1) lost += 1;
  }
  // The options loads are sync: accepted and completed, but they hold no slot or gauge entry.
  const sync = sum(run.bots, (bot) => bot.tally.finishedCount('block_suggestion', 'completed'));
  const accepted = sum(run.bots, (bot) => bot.runtime.stats().accepted) - sync;
  const completed = sum(run.bots, (bot) => bot.runtime.stats().outcomes.completed ?? 0) - sync;
  const entered = sum(run.bots, (bot) => bot.tally.handlers.entered);
  const threw = sum(run.bots, (bot) => bot.tally.handlers.threw);
  // Stopped by a shutdown's grace: the outcome `shutdown`, and the handler said so to its user.
  const stopped = sum(run.bots, (bot) => bot.runtime.stats().outcomes.shutdown ?? 0);
  const interrupted = sum(run.bots, interruptedOf);
  return {
    name: 'nothing acknowledged and lost',
    passed:
      lost === 0 &&
      accepted === completed + stopped &&
      accepted === entered &&
      stopped === interrupted &&
      threw === 0,
    detail:
      `${acked.size} events acked, ${lost} without exactly one reply; both instances: accepted ` +
      `${accepted} deferred = completed ${completed} + stopped at shutdown ${stopped} = handlers ` +
      `entered ${entered} (${threw} threw; ${interrupted} told their user they were interrupted), ` +
      `and ${sync} sync options loads`,
  };
}

function nothingTwice(run: SocketRun): Invariant {
  let threadsTwice = 0;
  for (const count of run.ledger.repliesPerThread.values()) if (count > 1) threadsTwice += 1;
  const finished = new Map<string, number>();
  for (const bot of run.bots) {
    for (const map of Object.values(bot.tally.handled)) {
      for (const [id, count] of map) finished.set(id, (finished.get(id) ?? 0) + count);
    }
  }
  const botTwice = [...finished.values()].filter((count) => count > 1).length;
  const duplicates = sum(run.bots, (bot) => bot.runtime.stats().outcomes.duplicate ?? 0);
  return {
    name: 'no event handled twice',
    passed: threadsTwice === 0 && botTwice === 0 && run.ledger.strayMessages === 0,
    detail:
      `${threadsTwice} threads with two replies; ${botTwice} ids finished twice across A and B; ` +
      `${run.ledger.strayMessages} stray messages; ${duplicates} redeliveries deduped (shared State)`,
  };
}

function refusalsVisible(run: SocketRun): Invariant {
  const counts = {
    command: { answer: 0, busy: 0, interrupted: 0 },
    click: { answer: 0, busy: 0, interrupted: 0 },
  };
  let none = 0;
  for (const record of run.ledger.invocations.values()) {
    const interrupted = record.responseTexts.includes(INTERRUPTED_NOTICE);
    const answered = record.responseTexts.some(
      (t) => !run.busyTexts.includes(t) && t !== INTERRUPTED_NOTICE,
    );
    const busy =
      (record.ackText !== undefined && run.busyTexts.includes(record.ackText)) ||
      record.responseTexts.some((t) => run.busyTexts.includes(t));
    if (answered) counts[record.kind].answer += 1;
    else if (interrupted) counts[record.kind].interrupted += 1;
    else if (busy) counts[record.kind].busy += 1;
    else none += 1;
  }
  const seen = (kind: 'command' | 'click') =>
    counts[kind].answer + counts[kind].busy + counts[kind].interrupted;
  const refusedCommands = sum(
    run.bots,
    (bot) => bot.tally.rejectedByShape.get('slash_command') ?? 0,
  );
  return {
    name: 'every /ask and click got an answer or a visible busy signal',
    passed:
      none === 0 &&
      seen('command') === run.config.commands &&
      seen('click') === run.config.clicks &&
      counts.command.busy >= refusedCommands,
    detail:
      `/ask ${counts.command.answer} answered + ${counts.command.busy} busy (ack payload) + ` +
      `${counts.command.interrupted} told interrupted of ${run.config.commands}, ${refusedCommands} ` +
      `refused; clicks ${counts.click.answer} answered + ${counts.click.busy} busy + ` +
      `${counts.click.interrupted} told interrupted of ${run.config.clicks}; ${none} saw nothing`,
  };
}

function boundHeld(run: SocketRun): Invariant {
  const max = run.config.maxDetached;
  const peaks = run.bots.map((bot) =>
    Math.max(bot.tally.allHandlers.peak, bot.tally.peakAtAdmission, bot.tally.peakAtObservation),
  );
  return {
    name: 'the admission bound was never exceeded',
    passed: peaks.every((peak) => peak <= max),
    detail: run.bots.map((bot, i) => `${bot.label} peak ${peaks[i]}/${max}`).join(', '),
  };
}

function memoryWithinBudget(run: SocketRun): Invariant {
  const budget = run.config.heapBudgetMb * 1_048_576;
  return {
    name: 'peak memory within budget',
    passed: run.peakHeapUsedBytes <= budget,
    detail: `peak heap ${mib(run.peakHeapUsedBytes)} (budget ${run.config.heapBudgetMb} MiB), both instances in one process`,
  };
}

/** The streamed-replies invariant over both instances' `stream_finished` observations. */
function streamedReplies(run: SocketRun): Invariant {
  const observed = new Map<string, number>();
  for (const bot of run.bots) {
    for (const [key, count] of observedStreams('Slack', bot.tally.streamsOf(bot.slack.name))) {
      observed.set(key, (observed.get(key) ?? 0) + count);
    }
  }
  return streamedRepliesHonest({
    replies: run.streamed,
    observed,
    modelStops: sum(run.bots, (bot) => bot.tally.modelStops),
    markers: STREAM_MARKERS,
  });
}

/** The Socket Mode run's contract, checked against what Slack's fake and both instances saw. */
export function checkSocketInvariants(
  run: SocketRun,
  stoppedEarly: string | undefined,
): Invariant[] {
  return [
    everyEventOnceOrOwed(run, stoppedEarly),
    nothingAckedAndLost(run),
    nothingTwice(run),
    noEventAckedAfterAdmissionClosed(run),
    busyAcksForDirectInvocations(run),
    deployLostNothing(run),
    refusalsVisible(run),
    boundHeld(run),
    memoryWithinBudget(run),
    streamedReplies(run),
  ];
}
