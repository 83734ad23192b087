import type { BotTally } from '../bot/bot-tally.js';
import type { DemoConfig } from '../config/flags.js';
import type { Snapshot } from '../metrics.js';
import type { SimulatorLedger } from '../simulator/ledger.js';
import type { SimulatedWebApi } from '../simulator/web-api.js';
import { mib } from '../view/format.js';

/** One checked property of the contract. */
export interface Invariant {
  readonly name: string;
  readonly passed: boolean;
  /** The measured figures behind the verdict. */
  readonly detail: string;
}

/** Everything the checks read. */
export interface InvariantInput {
  readonly config: DemoConfig;
  readonly ledger: SimulatorLedger;
  readonly webApi: SimulatedWebApi;
  readonly tally: BotTally;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly accepted: number;
  readonly final: Snapshot;
  readonly busyText: string;
}

const ACCEPTED_NOT_COMPLETED = [
  'failed',
  'dropped',
  'superseded',
  'timed-out',
  'preempted',
  'shutdown',
];

function eventsHandledOnceOrOwed(input: InvariantInput): Invariant {
  const handled = input.tally.handled.event;
  let once = 0;
  let owed = 0;
  let exhausted = 0;
  let neither = 0;
  for (const record of input.ledger.events.values()) {
    const count = handled.get(record.id) ?? 0;
    if (count === 1) once += 1;
    else if (count > 1) neither += 1;
    else if (record.status === 'awaiting-retry') owed += 1;
    else if (record.status === 'exhausted') exhausted += 1;
    else neither += 1;
  }
  const unsent = input.config.events - input.ledger.events.size;
  return {
    name: 'every event handled exactly once or still owed a retry',
    passed: once + owed === input.ledger.events.size,
    detail:
      `${once}/${input.ledger.events.size} handled once, ${owed} still owed a retry, ` +
      `${exhausted} exhausted (Slack would stop)${neither > 0 ? `, ${neither} otherwise lost` : ''}` +
      `${unsent > 0 ? `, ${unsent} never sent` : ''}`,
  };
}

function nothingAckedAndLost(input: InvariantInput): Invariant {
  const { tally, outcomes } = input;
  let acked = 0;
  let lost = 0;
  for (const record of input.ledger.events.values()) {
    if (record.status !== 'acked') continue;
    acked += 1;
    if ((tally.handled.event.get(record.id) ?? 0) === 0) lost += 1;
  }
  const handledTotal =
    tally.handledCount('event') + tally.handledCount('command') + tally.handledCount('click');
  const completed = outcomes.completed ?? 0;
  const otherEnds = ACCEPTED_NOT_COMPLETED.reduce((sum, o) => sum + (outcomes[o] ?? 0), 0);
  const eventsCompleted = tally.finishedCount('event_callback', 'completed');
  const passed =
    lost === 0 &&
    otherEnds === 0 &&
    input.accepted === completed &&
    completed === handledTotal &&
    eventsCompleted === tally.handledCount('event');
  return {
    name: 'nothing acknowledged and lost',
    passed,
    detail:
      `${acked} events acked with 2xx, ${lost} of them unhandled; runtime accepted ${input.accepted} = ` +
      `completed ${completed} = handled ${handledTotal} (events ${eventsCompleted} = ${tally.handledCount('event')}); ` +
      `failed/timed-out/dropped/shutdown ${otherEnds}`,
  };
}

function nothingHandledTwice(input: InvariantInput): Invariant {
  let twice = 0;
  for (const map of Object.values(input.tally.handled)) {
    for (const count of map.values()) if (count > 1) twice += 1;
  }
  let threadsTwice = 0;
  for (const count of input.webApi.repliesPerThread.values()) if (count > 1) threadsTwice += 1;
  let answeredTwice = 0;
  for (const record of input.ledger.invocations.values()) {
    if (record.responseTexts.filter((t) => t !== input.busyText).length > 1) answeredTwice += 1;
  }
  return {
    name: 'no event handled twice',
    passed: twice === 0 && threadsTwice === 0 && answeredTwice === 0,
    detail:
      `${twice} handled twice; ${threadsTwice} threads with two replies; ${answeredTwice} invocations ` +
      `answered twice; runtime deduped ${input.outcomes.duplicate ?? 0} redeliveries`,
  };
}

function honestRejection(input: InvariantInput): Invariant {
  const { tally, final } = input;
  const rejectedEvents = tally.rejectedByShape.get('event_callback') ?? 0;
  const rejectedCommands = tally.rejectedByShape.get('slash_command') ?? 0;
  const rejectedClicks = tally.rejectedByShape.get('block_actions') ?? 0;
  const observed = input.outcomes['admission-rejected'] ?? 0;
  const passed =
    final.sim.rejected503 === rejectedEvents &&
    final.sim.noRetry === 0 &&
    final.busyShown.commands === rejectedCommands &&
    final.busyShown.clicks === rejectedClicks &&
    observed === rejectedEvents + rejectedCommands + rejectedClicks;
  return {
    name: 'every refusal was honest and visible',
    passed,
    detail:
      `503s seen by Slack ${final.sim.rejected503} = admission_rejected(event_callback) ${rejectedEvents}, ` +
      `x-slack-no-retry ${final.sim.noRetry}; /ask busy acks ${final.busyShown.commands} = rejected ` +
      `${rejectedCommands}; click busy posts ${final.busyShown.clicks} = rejected ${rejectedClicks}`,
  };
}

function acksInTime(input: InvariantInput): Invariant {
  let maxLatency = 0;
  for (const record of input.ledger.events.values()) {
    for (const { result } of record.attempts) maxLatency = Math.max(maxLatency, result.latencyMs);
  }
  for (const record of input.ledger.invocations.values()) {
    if (record.ack !== undefined) maxLatency = Math.max(maxLatency, record.ack.latencyMs);
  }
  const { otherFailures } = input.final.sim;
  const { invocationsFailed } = input.final.sim;
  return {
    name: "every delivery answered within Slack's 3 s",
    passed: otherFailures === 0 && invocationsFailed === 0,
    detail:
      `max ack latency ${maxLatency} ms; ${otherFailures} event deliveries timed out or failed ` +
      `otherwise; ${invocationsFailed} command/click acks failed`,
  };
}

function boundHeld(input: InvariantInput): Invariant {
  const { tally, final } = input;
  const max = input.config.maxDetached;
  const peak = Math.max(tally.peakAtAdmission, tally.peakAtObservation, final.peakSampled);
  return {
    name: 'the admission bound was never exceeded',
    passed: peak <= max,
    detail:
      `peak ${peak}/${max}: ${tally.peakAtAdmission} at ${tally.admissionsProbed} admissions probed, ` +
      `${tally.peakAtObservation} at admission/rejection observations, ${final.peakSampled} in ` +
      `${final.samples} samples`,
  };
}

function invocationsAnswered(input: InvariantInput): Invariant {
  const counts = {
    command: { answer: 0, busy: 0, none: 0 },
    click: { answer: 0, busy: 0, none: 0 },
  };
  for (const record of input.ledger.invocations.values()) {
    const c = counts[record.kind];
    const answered = record.responseTexts.some((t) => t !== input.busyText);
    const busy = record.ackText === input.busyText || record.responseTexts.includes(input.busyText);
    if (answered) c.answer += 1;
    else if (busy) c.busy += 1;
    else c.none += 1;
  }
  const commands = input.ledger.counters.commandsSent;
  const clicks = input.ledger.counters.clicksSent;
  const passed =
    counts.command.none + counts.click.none === 0 &&
    counts.command.answer + counts.command.busy === commands &&
    counts.click.answer + counts.click.busy === clicks;
  return {
    name: 'every /ask and click got an answer or a visible busy signal',
    passed,
    detail:
      `/ask ${counts.command.answer} answered + ${counts.command.busy} busy of ${commands}; ` +
      `clicks ${counts.click.answer} answered + ${counts.click.busy} busy of ${clicks}; ` +
      `${counts.command.none + counts.click.none} saw nothing`,
  };
}

function memoryWithinBudget(input: InvariantInput): Invariant {
  const { final, config } = input;
  return {
    name: 'peak memory within budget',
    passed: final.peakHeapUsedBytes <= config.heapBudgetMb * 1_048_576,
    detail:
      `peak heap ${mib(final.peakHeapUsedBytes)} (budget ${config.heapBudgetMb} MiB), ` +
      `peak rss ${mib(final.peakRssBytes)}`,
  };
}

/** Checks the contract against what the simulator, the bot and the runtime measured. */
export function checkInvariants(input: InvariantInput): Invariant[] {
  return [
    eventsHandledOnceOrOwed(input),
    nothingAckedAndLost(input),
    nothingHandledTwice(input),
    honestRejection(input),
    acksInTime(input),
    boundHeld(input),
    invocationsAnswered(input),
    memoryWithinBudget(input),
  ];
}
