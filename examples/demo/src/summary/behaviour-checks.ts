import { SLACK_ACK_TIMEOUT_MS } from '@rt/testing/slack';
import { mib } from '../view/format.js';
import type { Invariant, InvariantInput } from './invariants.js';

/**
 * Every refusal was honest and visible: the 503s the simulator saw equal the runtime's
 * `admission_rejected` observations for `event_callback`, none carried `x-slack-no-retry`, and
 * the busy texts users saw (by the invocation that owns the `response_url`) equal the rejected
 * commands and clicks. A busy post to a URL no invocation owns fails the line.
 */
export function honestRejection(input: InvariantInput): Invariant {
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
    final.lateBusy.unknown === 0 &&
    observed === rejectedEvents + rejectedCommands + rejectedClicks;
  return {
    name: 'every refusal was honest and visible',
    passed,
    detail:
      `503s seen by Slack ${final.sim.rejected503} = admission_rejected(event_callback) ` +
      `${rejectedEvents}, x-slack-no-retry ${final.sim.noRetry}; /ask busy acks ` +
      `${final.busyShown.commands} = rejected ${rejectedCommands}; busy posts to click ` +
      `response_urls ${final.busyShown.clicks} = rejected ${rejectedClicks}; late busy posts to ` +
      `/ask ${final.lateBusy.commands}, to unknown URLs ${final.lateBusy.unknown}`,
  };
}

/**
 * Every acknowledgement arrived within Slack's 3 s by the simulator's clock. A response read
 * after the deadline is already recorded as a timeout (see `SignerClient`); the latency of every
 * recorded response is compared with the deadline as well.
 */
export function acksInTime(input: InvariantInput): Invariant {
  let maxLatency = 0;
  let late = 0;
  const see = (result: { kind: string; latencyMs: number }) => {
    maxLatency = Math.max(maxLatency, result.latencyMs);
    if (result.kind === 'response' && result.latencyMs > SLACK_ACK_TIMEOUT_MS) late += 1;
  };
  for (const record of input.ledger.events.values()) {
    for (const { result } of record.attempts) see(result);
  }
  for (const record of input.ledger.invocations.values()) {
    if (record.ack !== undefined) see(record.ack);
  }
  const { otherFailures, invocationsFailed } = input.ledger.counters;
  return {
    name: "every delivery answered within Slack's 3 s",
    passed: otherFailures === 0 && invocationsFailed === 0 && late === 0,
    detail:
      `max ack latency ${maxLatency} ms (limit ${SLACK_ACK_TIMEOUT_MS}); ${otherFailures} event ` +
      `deliveries timed out or failed otherwise; ${invocationsFailed} command/click acks failed` +
      (late > 0 ? `; ${late} responses later than the limit` : ''),
  };
}

/**
 * The admission bound held, by two independent counts: handler bodies running at once, counted
 * by the handlers' own wrapper, and the runtime's `detachedInFlight` read at every admission (the
 * State probe), at every admission/rejection observation and in the 4 Hz samples.
 */
export function boundHeld(input: InvariantInput): Invariant {
  const { tally, final } = input;
  const max = input.config.maxDetached;
  const wrapper = tally.allHandlers.peak;
  const runtime = Math.max(tally.peakAtAdmission, tally.peakAtObservation, final.peakSampled);
  return {
    name: 'the admission bound was never exceeded',
    passed: wrapper <= max && runtime <= max,
    detail:
      `handlers running at once, both platforms (their own wrapper) peak ${wrapper}/${max}; runtime ` +
      `detachedInFlight peak ${runtime}/${max}: ${tally.peakAtAdmission} at ` +
      `${tally.admissionsProbed} admissions probed, ${tally.peakAtObservation} at ` +
      `admission/rejection observations, ${final.peakSampled} in ${final.samples} samples`,
  };
}

/**
 * Every planned `/ask` and click was sent and its user saw the handler's answer at the
 * `response_url` or the busy text (in the ack or at the `response_url`): the simulator's record.
 */
export function invocationsAnswered(input: InvariantInput): Invariant {
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
  const { commands, clicks } = input.config;
  const passed =
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

/** Peak heap in use (4 Hz samples of `process.memoryUsage()`) within `--heap-budget-mb`. */
export function memoryWithinBudget(input: InvariantInput): Invariant {
  const { final, config } = input;
  return {
    name: 'peak memory within budget',
    passed: final.peakHeapUsedBytes <= config.heapBudgetMb * 1_048_576,
    detail:
      `peak heap ${mib(final.peakHeapUsedBytes)} (budget ${config.heapBudgetMb} MiB), ` +
      `peak rss ${mib(final.peakRssBytes)}`,
  };
}
