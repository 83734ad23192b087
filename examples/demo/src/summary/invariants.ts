import type { BotTally } from '../bot/bot-tally.js';
import type { DemoConfig } from '../config/demo-config.js';
import type { Snapshot } from '../metrics.js';
import type { SimulatorLedger } from '../simulator/ledger.js';
import {
  acksInTime,
  boundHeld,
  honestRejection,
  invocationsAnswered,
  memoryWithinBudget,
} from './behaviour-checks.js';
import {
  eventsHandledOnceOrOwed,
  nothingAckedAndLost,
  nothingHandledTwice,
  wholePlanRan,
} from './delivery-checks.js';

/** One checked property of the contract. */
export interface Invariant {
  readonly name: string;
  readonly passed: boolean;
  /** The measured figures behind the verdict. */
  readonly detail: string;
}

/**
 * Everything the checks read, grouped by who measured it:
 * - `ledger`: the simulator's own observations (what Slack sent, every acknowledgement and its
 *   latency, every `chat.postMessage` by thread and every `response_url` post by invocation, as
 *   the simulated Web API received them);
 * - `tally`: the bot's side: the runtime's observations, the admission probe, the handlers' own
 *   wrapper (`HandlerGauge`) and the handlers' record of what they finished;
 * - `outcomes`/`accepted`: `runtime.stats()` at the end;
 * - `final`: the last sample (counters, peaks of the 4 Hz samples, memory).
 */
export interface InvariantInput {
  readonly config: DemoConfig;
  readonly ledger: SimulatorLedger;
  readonly tally: BotTally;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly accepted: number;
  readonly final: Snapshot;
  readonly busyText: string;
  /** Why the run stopped before Slack had finished (Ctrl-C, the time cap); absent otherwise. */
  readonly stoppedEarly?: string;
}

/** Checks the contract against what the simulator, the bot and the runtime measured. */
export function checkInvariants(input: InvariantInput): Invariant[] {
  return [
    wholePlanRan(input),
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
