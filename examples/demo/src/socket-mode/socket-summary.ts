import { STREAM_MARKERS } from '../bot/handlers.js';
import type { TrafficPlan } from '../simulator/traffic-plan.js';
import type { Invariant } from '../summary/invariants.js';
import { countReplyEnds, listCounts } from '../summary/stream-checks.js';
import { verdictLines } from '../summary/summary.js';
import { seconds } from '../view/format.js';
import type { SocketRun } from './socket-checks.js';

/** What the Socket Mode summary reports. */
export interface SocketSummaryInput {
  readonly run: SocketRun;
  readonly plan: TrafficPlan;
  readonly invariants: readonly Invariant[];
  readonly elapsedMs: number;
  readonly stoppedEarly: string | undefined;
}

/**
 * The end of a Socket Mode run, in the HTTP run's format: what the fake Slack sent and recorded
 * (envelopes, redeliveries, acks per connection, expired events), what users saw (the simulated
 * Web API's record), each instance's runtime ledger, then one PASS/FAIL line per invariant and
 * the RESULT line.
 */
export function renderSocketSummary(input: SocketSummaryInput): string {
  const { run, plan } = input;
  const { config, fake, ledger } = run;
  const redeliveries = fake.sent.filter((e) => (e.retry_attempt ?? 0) > 0).length;
  const acksBy = (connection: number) =>
    fake.acks.filter((a) => a.connection === connection).length;
  const connections = fake.connections.map((c, i) => `#${i + 1} ${acksBy(c.id)}`).join(', ');
  let threadReplies = 0;
  for (const count of ledger.repliesPerThread.values()) threadReplies += count;
  const seen = { command: { answers: 0, busy: 0 }, click: { answers: 0, busy: 0 } };
  for (const record of ledger.invocations.values()) {
    const isBusy = (t: string | undefined) => t !== undefined && run.busyTexts.includes(t);
    if (record.responseTexts.some((t) => !isBusy(t))) seen[record.kind].answers += 1;
    else if (isBusy(record.ackText) || record.responseTexts.some(isBusy))
      seen[record.kind].busy += 1;
  }
  const instances = run.bots.map((bot) => {
    const stats = bot.runtime.stats();
    const o = stats.outcomes;
    return (
      `  runtime   ${bot.label}: received ${stats.received}, accepted ${stats.accepted}, completed ` +
      `${o.completed ?? 0}, admission-rejected ${o['admission-rejected'] ?? 0} ` +
      `(${bot.refusedAtShutdown.size} events and ${bot.refusedCommandsAtShutdown} /ask at ` +
      `shutdown), duplicate ${o.duplicate ?? 0}, failed ${o.failed ?? 0}, stopped at shutdown ` +
      `${o.shutdown ?? 0}`
    );
  });
  const sent =
    ledger.counters.eventsSent + ledger.counters.commandsSent + ledger.counters.clicksSent;
  const lines = [
    '',
    `Summary  Socket Mode, seed ${config.seed}, ${config.events} events, ${config.commands} /ask, ` +
      `${config.clicks} clicks, maxDetached ${config.maxDetached} per instance, handler ` +
      `~${config.handlerMs} ms, ran ${seconds(input.elapsedMs)}`,
    `  time      Slack's ack wait and retry delays compressed x${config.timeScale}: 1 min = ` +
      `${seconds(60_000 / config.timeScale)}, 5 min = ${seconds(300_000 / config.timeScale)}`,
    `  deploy    B connected mid-flood, then A shut down with a ${seconds(run.deployGraceMs)} grace (${
      run.aStoppedInMs === undefined ? 'never stopped' : `stopped in ${seconds(run.aStoppedInMs)}`
    }); both share one State`,
    `  Slack     ${plan.items.length} planned, ${ledger.events.size} unique events; ${fake.sent.length} ` +
      `envelopes (${redeliveries} redeliveries of unacked events); acks by connection ${connections}; ` +
      `expired ${fake.expired.length}`,
    ...instances,
    `  users saw ${threadReplies} thread replies; /ask ${seen.command.answers} answers + ` +
      `${seen.command.busy} busy; clicks ${seen.click.answers} answers + ${seen.click.busy} busy ` +
      "(recorded by the simulated Web API and the fake's acks)",
    `  streams   ${listCounts(countReplyEnds(run.streamed, STREAM_MARKERS))} (final texts, recorded ` +
      'by the simulated Web API)',
    '',
    ...verdictLines(
      input.invariants,
      input.stoppedEarly,
      `${sent} of ${plan.items.length} planned deliveries sent`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
