import type { DemoConfig } from '../config/flags.js';
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

/** The end-of-run report; its last lines are one PASS/FAIL line per invariant. */
export function renderSummary(input: SummaryInput): string {
  const { config, plan, final, outcomes } = input;
  const byAttempt = ackedOnAttempt(input.ledger);
  const failedDeliveries = final.sim.rejected503 + final.sim.otherFailures;
  const failureRate =
    final.sim.deliveries > 0 ? (100 * failedDeliveries) / final.sim.deliveries : 0;
  const oneMinute = seconds(60_000 / config.timeScale);
  const passed = input.invariants.filter((i) => i.passed).length;
  const planned = plan.items.length;
  const sent = final.sim.eventsSent + final.sim.commandsSent + final.sim.clicksSent;
  const interrupted =
    sent < planned
      ? ` (stopped early: ${planned - sent} of ${planned} planned deliveries never sent)`
      : '';
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
    `  runtime   received ${input.received}, accepted ${input.accepted}, completed ${outcomes.completed ?? 0}, ` +
      `admission-rejected ${outcomes['admission-rejected'] ?? 0}, duplicate ${outcomes.duplicate ?? 0}, ` +
      `failed ${outcomes.failed ?? 0}, timed-out ${outcomes['timed-out'] ?? 0}`,
    `  users saw ${final.web.messagesPosted} thread replies; /ask ${final.handled.command} answers + ` +
      `${final.busyShown.commands} busy; clicks ${final.handled.click} answers + ${final.busyShown.clicks} busy`,
    `  delivery failure rate ${failureRate.toFixed(1)}% (Slack disables event subscriptions above 95% ` +
      'within an hour)',
    '',
    ...input.invariants.map((i) => `${i.passed ? 'PASS' : 'FAIL'}  ${i.name}: ${i.detail}`),
    passed === input.invariants.length
      ? `RESULT: all ${passed} invariants passed${interrupted}`
      : `RESULT: ${input.invariants.length - passed} of ${input.invariants.length} invariants FAILED${interrupted}`,
  ];
  return `${lines.join('\n')}\n`;
}
