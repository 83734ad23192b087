import type { DemoConfig } from '../config/demo-config.js';
import type { DiscordCounts } from '../discord/discord-record.js';
import type { Snapshot } from '../metrics.js';
import type { SimulatorLedger } from '../simulator/ledger.js';
import type { TrafficPlan } from '../simulator/traffic-plan.js';
import { seconds } from '../view/format.js';
import type { Invariant } from './invariants.js';

/** What the summary reports besides the invariants. */
export interface SummaryInput {
  readonly config: DemoConfig;
  readonly plan: TrafficPlan;
  readonly ledger: SimulatorLedger;
  readonly final: Snapshot;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly received: number;
  readonly accepted: number;
  readonly invariants: readonly Invariant[];
  readonly busyText: string;
  /** Why the run stopped before Slack had finished; absent when it ran to the end. */
  readonly stoppedEarly?: string;
  /** The streamed replies by platform, path and how they ended (the simulators' records). */
  readonly streams?: string;
  /**
   * The Discord side of the run: the runtime's ledger for the Discord adapter, what its handlers
   * finished, and the simulator's counts (sent, answered, told busy, by kind).
   */
  readonly discord?: {
    readonly outcomes: Readonly<Record<string, number>>;
    readonly accepted: number;
    readonly handled: DiscordHandled;
    readonly counts: DiscordCounts;
  };
}

/** What the Discord handlers finished, by kind (the bot's count). */
export interface DiscordHandled {
  readonly messages: number;
  readonly commands: number;
  readonly clicks: number;
}

/** On which attempt each acknowledged event got its 2xx (0 = first delivery). */
function ackedOnAttempt(ledger: SimulatorLedger): number[] {
  const counts = [0, 0, 0, 0];
  for (const record of ledger.events.values()) {
    if (record.status !== 'acked') continue;
    const ok = record.attempts.find(
      ({ result }) => result.kind === 'response' && result.status >= 200 && result.status < 300,
    );
    if (ok !== undefined) counts[ok.attempt] = (counts[ok.attempt] ?? 0) + 1;
  }
  return counts;
}

/** What users saw for each kind of invocation, from the simulator's record. */
function invocationViews(input: SummaryInput, busyText: string) {
  const seen = { command: { answers: 0, busy: 0 }, click: { answers: 0, busy: 0 } };
  for (const record of input.ledger.invocations.values()) {
    if (record.responseTexts.some((t) => t !== busyText)) seen[record.kind].answers += 1;
    else if (record.ackText === busyText || record.responseTexts.includes(busyText)) {
      seen[record.kind].busy += 1;
    }
  }
  return seen;
}

/** The Discord block of the summary (empty without a Discord side). */
function discordLines(input: SummaryInput): string[] {
  const d = input.discord;
  if (d === undefined) return [];
  const o = d.outcomes;
  const { sent, answered, busy } = d.counts;
  return [
    `  Discord   sent ${sent.message} mentions over the gateway; ${sent.command} /ask, ${sent.click} ` +
      `clicks, ${sent.suggestion} autocompletes as signed HTTP interactions (never redelivered)`,
    `  users saw mentions ${answered.message} answers + ${busy.message} busy replies; /ask ` +
      `${answered.command} + ${busy.command} busy; clicks ${answered.click} + ${busy.click} busy; ` +
      `autocomplete ${answered.suggestion} with choices (recorded by the Discord simulator)`,
    `  runtime   Discord: accepted ${d.accepted}, completed ${o.completed ?? 0}, admission-rejected ` +
      `${o['admission-rejected'] ?? 0}, duplicate ${o.duplicate ?? 0}, failed ${o.failed ?? 0}; ` +
      `handlers finished ${d.handled.messages} mentions, ${d.handled.commands} /ask, ${d.handled.clicks} clicks`,
  ];
}

/** The end-of-run report; its last lines are one PASS/FAIL line per invariant. */
export function renderSummary(input: SummaryInput): string {
  const { config, plan, final, outcomes } = input;
  const byAttempt = ackedOnAttempt(input.ledger);
  const failedDeliveries = final.sim.rejected503 + final.sim.otherFailures;
  const failureRate =
    final.sim.deliveries > 0 ? (100 * failedDeliveries) / final.sim.deliveries : 0;
  const oneMinute = seconds(60_000 / config.timeScale);
  const planned = plan.items.length;
  const sent = final.sim.eventsSent + final.sim.commandsSent + final.sim.clicksSent;
  const seen = invocationViews(input, input.busyText);
  let threadReplies = 0;
  for (const count of input.ledger.repliesPerThread.values()) threadReplies += count;
  const stopped = `${sent} of ${planned} planned deliveries sent, ${final.sim.retriesCancelled} retries cancelled`;
  const lines = [
    '',
    `Summary  seed ${config.seed}, ${config.events} events, ${config.commands} /ask, ${config.clicks} clicks, ` +
      `maxDetached ${config.maxDetached}, handler ~${config.handlerMs} ms, ran ${seconds(final.elapsedMs)}`,
    `  time      Slack retry delays compressed x${config.timeScale}: 1 min = ${oneMinute}, 5 min = ` +
      `${seconds(300_000 / config.timeScale)} (the 3 s ack timeout is real time)`,
    `  traffic   ${plan.bursts} bursts ~${seconds(plan.spacingMs)} apart; ${final.sim.eventsSent} unique events ` +
      `in ${final.sim.deliveries} deliveries (${final.sim.deliveries - final.sim.eventsSent} redeliveries)`,
    `  Slack     acked ${final.sim.eventsAcked} (first try ${byAttempt[0]}, retry #1 ${byAttempt[1]}, ` +
      `#2 ${byAttempt[2]}, #3 ${byAttempt[3]}); 503 ${final.sim.rejected503}; other failures ` +
      `${final.sim.otherFailures}; exhausted ${final.sim.exhausted}`,
    `  runtime   Slack: received ${input.received}, accepted ${input.accepted}, completed ${outcomes.completed ?? 0}, ` +
      `admission-rejected ${outcomes['admission-rejected'] ?? 0}, duplicate ${outcomes.duplicate ?? 0}, ` +
      `failed ${outcomes.failed ?? 0}, timed-out ${outcomes['timed-out'] ?? 0}`,
    `  users saw ${threadReplies} thread replies; /ask ${seen.command.answers} answers + ` +
      `${seen.command.busy} busy; clicks ${seen.click.answers} answers + ${seen.click.busy} busy ` +
      '(recorded by the simulated Web API)',
    ...discordLines(input),
    ...(input.streams === undefined
      ? []
      : [`  streams   ${input.streams} (final texts, recorded by the simulators)`]),
    `  delivery failure rate ${failureRate.toFixed(1)}% (Slack disables event subscriptions above 95% ` +
      'within an hour)',
    '',
    ...verdictLines(input.invariants, input.stoppedEarly, stopped),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The verdict every run ends with, whatever its transport: one `PASS`/`FAIL` line per invariant,
 * then the `RESULT` line. A run stopped early says so whatever the lines say (`progress` tells how
 * far it got): an unfinished run proves nothing.
 */
export function verdictLines(
  invariants: readonly Invariant[],
  stoppedEarly: string | undefined,
  progress: string,
): string[] {
  const total = invariants.length;
  const failed = invariants.filter((i) => !i.passed).length;
  let result = failed === 0 ? `RESULT: all ${total} invariants passed` : '';
  if (failed > 0) result = `RESULT: ${failed} of ${total} invariants FAILED`;
  if (stoppedEarly !== undefined) {
    result =
      `RESULT: STOPPED EARLY (${stoppedEarly}): ${progress}; an unfinished run proves nothing ` +
      `(${failed} of ${total} invariants failed)`;
  }
  return [
    ...invariants.map((i) => `${i.passed ? 'PASS' : 'FAIL'}  ${i.name}: ${i.detail}`),
    result,
  ];
}
