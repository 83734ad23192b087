import type { FakeSocketConnection, FakeSocketMode } from '@rt/testing/slack';
import type { DemoConfig } from '../config/demo-config.js';
import type { SimulatorLedger } from '../simulator/ledger.js';
import type { WebApiCounters } from '../simulator/web-api.js';
import type { Invariant } from '../summary/invariants.js';
import { mib, seconds } from '../view/format.js';
import type { SocketBot } from './socket-bot.js';

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
  /** How long A's `runtime.shutdown()` took; absent when it never resolved. */
  readonly aStoppedInMs: number | undefined;
  /** The busy and the unavailable texts: what a refused user sees. */
  readonly busyTexts: readonly string[];
  /** Peak `heapUsed` of the samples taken during the run. */
  readonly peakHeapUsedBytes: number;
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

function everyEventOnce(run: SocketRun, stoppedEarly: string | undefined): Invariant {
  const { ledger, config } = run;
  let once = 0;
  let twice = 0;
  let none = 0;
  for (const record of ledger.events.values()) {
    const replies = ledger.repliesTo(record);
    if (replies === 1) once += 1;
    else if (replies > 1) twice += 1;
    else none += 1;
  }
  return {
    name: 'every event handled exactly once, across the deploy',
    passed: stoppedEarly === undefined && once === config.events,
    detail:
      `${once}/${config.events} with one reply in their thread, ${twice} with more, ${none} with ` +
      `none; ${run.fake.expired.length} ran out of Slack's retries` +
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
  const accepted = sum(run.bots, (bot) => bot.runtime.stats().accepted);
  const completed = sum(run.bots, (bot) => bot.runtime.stats().outcomes.completed ?? 0);
  const entered = sum(run.bots, (bot) => bot.tally.handlers.entered);
  const threw = sum(run.bots, (bot) => bot.tally.handlers.threw);
  return {
    name: 'nothing acknowledged and lost',
    passed: lost === 0 && accepted === completed && completed === entered && threw === 0,
    detail:
      `${acked.size} events acked, ${lost} without exactly one reply; both instances: accepted ` +
      `${accepted} = completed ${completed} = handlers entered ${entered} (${threw} threw)`,
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

function deployLostNothing(run: SocketRun): Invariant {
  const [a, b] = run.bots;
  const refused = a?.refusedAtShutdown ?? new Set<string>();
  const ackedOnA = new Set(
    run.fake.acks
      .filter((ack) => ack.connection === run.connectionA.id && ack.envelope?.type === 'events_api')
      .map((ack) => String(ack.envelope?.payload.event_id)),
  );
  const refusedButAcked = [...refused].filter((id) => ackedOnA.has(id)).length;
  const handledByB = [...refused].filter((id) => (b?.tally.handled.event.get(id) ?? 0) > 0).length;
  const closedBy = run.connectionA.closedWith?.by;
  const passed =
    b !== undefined &&
    run.aStoppedInMs !== undefined &&
    closedBy === 'client' &&
    a?.connections === 1 &&
    refusedButAcked === 0 &&
    handledByB === refused.size &&
    a.runtime.stats().accepted === (a.runtime.stats().outcomes.completed ?? 0);
  return {
    name: 'the deploy lost nothing (ADR 0007)',
    passed,
    detail:
      `A stopped in ${run.aStoppedInMs === undefined ? 'never' : seconds(run.aStoppedInMs)}, its ` +
      `socket closed by ${closedBy ?? 'nobody'}, opened ${a?.connections ?? 0} time(s); ` +
      `${refused.size} events A refused while shutting down: ${refusedButAcked} acked by A, ` +
      `${handledByB} handled by B`,
  };
}

function refusalsVisible(run: SocketRun): Invariant {
  const counts = { command: { answer: 0, busy: 0 }, click: { answer: 0, busy: 0 } };
  let none = 0;
  for (const record of run.ledger.invocations.values()) {
    const answered = record.responseTexts.some((t) => !run.busyTexts.includes(t));
    const busy =
      (record.ackText !== undefined && run.busyTexts.includes(record.ackText)) ||
      record.responseTexts.some((t) => run.busyTexts.includes(t));
    if (answered) counts[record.kind].answer += 1;
    else if (busy) counts[record.kind].busy += 1;
    else none += 1;
  }
  const refusedCommands = sum(
    run.bots,
    (bot) => bot.tally.rejectedByShape.get('slash_command') ?? 0,
  );
  return {
    name: 'every /ask and click got an answer or a visible busy signal',
    passed:
      none === 0 &&
      counts.command.answer + counts.command.busy === run.config.commands &&
      counts.click.answer + counts.click.busy === run.config.clicks &&
      counts.command.busy >= refusedCommands,
    detail:
      `/ask ${counts.command.answer} answered + ${counts.command.busy} busy (ack payload) of ` +
      `${run.config.commands}, ${refusedCommands} refused; clicks ${counts.click.answer} answered ` +
      `+ ${counts.click.busy} busy of ${run.config.clicks}; ${none} saw nothing`,
  };
}

function boundHeld(run: SocketRun): Invariant {
  const max = run.config.maxDetached;
  const peaks = run.bots.map((bot) =>
    Math.max(bot.tally.handlers.peak, bot.tally.peakAtAdmission, bot.tally.peakAtObservation),
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

/** The Socket Mode run's contract, checked against what Slack's fake and both instances saw. */
export function checkSocketInvariants(
  run: SocketRun,
  stoppedEarly: string | undefined,
): Invariant[] {
  return [
    everyEventOnce(run, stoppedEarly),
    nothingAckedAndLost(run),
    nothingTwice(run),
    deployLostNothing(run),
    refusalsVisible(run),
    boundHeld(run),
    memoryWithinBudget(run),
  ];
}
