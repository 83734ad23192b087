import { ACCEPTED_OUTCOMES } from '@rt/core';
import type { BotTally } from '../bot/bot-tally.js';
import { DISCORD_ADAPTER_NAME } from '../bot/handlers.js';
import type { Invariant } from '../summary/invariants.js';
import type { DiscordItem, DiscordOutcome } from './discord-simulator.js';

/** Discord's limit on the first answer to an interaction. */
const INTERACTION_DEADLINE_MS = 3000;

/** What the Discord checks read. */
export interface DiscordCheckInput {
  readonly plan: readonly DiscordItem[];
  readonly outcomes: readonly DiscordOutcome[];
  readonly tally: BotTally;
  readonly gatewayCloses: readonly { readonly code: number; readonly byClient: boolean }[];
  readonly identifies: number;
  readonly stoppedEarly?: string;
}

/**
 * Every planned mention was sent and got exactly one visible answer: the handler's reply, or the
 * busy reply when the bound was full (the gateway delivers at most once: nothing may vanish).
 */
function messagesAnsweredOrBusy(input: DiscordCheckInput): Invariant {
  const planned = input.plan.filter((item) => item.kind === 'message').length;
  const n = { answered: 0, busy: 0, nothing: 0, twice: 0, sent: 0 };
  for (const outcome of input.outcomes) {
    if (outcome.item.kind !== 'message') continue;
    n.sent += 1;
    const shown = outcome.answers + outcome.busy;
    if (shown === 0) n.nothing += 1;
    else if (shown > 1) n.twice += 1;
    else if (outcome.answers === 1) n.answered += 1;
    else n.busy += 1;
  }
  return {
    name: 'Discord: every mention answered once or told busy',
    passed:
      input.stoppedEarly === undefined && n.sent === planned && n.nothing === 0 && n.twice === 0,
    detail:
      `sent ${n.sent}/${planned} over the gateway; ${n.answered} answered, ${n.busy} got the busy ` +
      `reply, ${n.nothing} got nothing, ${n.twice} got two`,
  };
}

/**
 * Every planned `/ask` got exactly one interaction callback within Discord's 3 s: a deferral
 * (type 5) later replaced by the answer, or an ephemeral busy reply (type 4).
 */
function commandsAcknowledgedInTime(input: DiscordCheckInput): Invariant {
  const planned = input.plan.filter((item) => item.kind === 'command').length;
  const n = { deferredAnswered: 0, busy: 0, wrong: 0, late: 0, sent: 0 };
  let slowest = 0;
  for (const outcome of input.outcomes) {
    if (outcome.item.kind !== 'command') continue;
    n.sent += 1;
    const [callback, ...more] = outcome.callbacks;
    if (callback === undefined || more.length > 0) {
      n.wrong += 1;
      continue;
    }
    slowest = Math.max(slowest, callback.latencyMs);
    if (callback.latencyMs > INTERACTION_DEADLINE_MS) n.late += 1;
    if (callback.type === 5 && outcome.answers === 1) n.deferredAnswered += 1;
    else if (callback.type === 4 && outcome.busy === 1 && outcome.answers === 0) n.busy += 1;
    else n.wrong += 1;
  }
  return {
    name: 'Discord: every /ask acknowledged within 3 s, then answered or told busy',
    passed: input.stoppedEarly === undefined && n.sent === planned && n.wrong === 0 && n.late === 0,
    detail:
      `sent ${n.sent}/${planned}; ${n.deferredAnswered} deferred (type 5) and answered, ${n.busy} ` +
      `ephemeral busy (type 4); ${n.wrong} without exactly one fitting callback, ${n.late} later ` +
      `than 3 s (slowest ${slowest} ms)`,
  };
}

/**
 * The runtime's Discord ledger adds up: every accepted delivery completed, as many as the Discord
 * handlers' own gauge entered and left, none threw; every refusal was shown as busy; no id handled
 * twice.
 */
function discordLedgerAddsUp(input: DiscordCheckInput): Invariant {
  const { tally } = input;
  const outcomes = tally.outcomesOf(DISCORD_ADAPTER_NAME);
  const accepted = tally.acceptedOf(DISCORD_ADAPTER_NAME);
  const completed = outcomes.completed ?? 0;
  const otherEnds = ACCEPTED_OUTCOMES.filter((o) => o !== 'completed').reduce(
    (sum, o) => sum + (outcomes[o] ?? 0),
    0,
  );
  const rejected = outcomes['admission-rejected'] ?? 0;
  const shownBusy = input.outcomes.filter((o) => o.busy > 0).length;
  const gauge = tally.discordHandlers;
  let twice = 0;
  for (const kind of ['discordMessage', 'discordCommand'] as const) {
    for (const count of tally.handled[kind].values()) if (count > 1) twice += 1;
  }
  return {
    name: 'Discord: accepted = completed, refusals shown, nothing handled twice',
    passed:
      accepted === completed &&
      otherEnds === 0 &&
      gauge.entered === accepted &&
      gauge.exited === accepted &&
      gauge.threw === 0 &&
      rejected === shownBusy &&
      twice === 0,
    detail:
      `runtime accepted ${accepted} = completed ${completed} = handlers ${gauge.entered}/` +
      `${gauge.exited} (threw ${gauge.threw}), other ends ${otherEnds}; admission-rejected ` +
      `${rejected} = busy shown ${shownBusy}; ${twice} ids handled twice`,
  };
}

/** The gateway stayed up through the flood and closed normally at shutdown, once. */
function gatewayClosedNormally(input: DiscordCheckInput): Invariant {
  const closes = input.gatewayCloses;
  const passed =
    input.identifies === 1 &&
    closes.length === 1 &&
    closes[0]?.code === 1000 &&
    closes[0]?.byClient === true;
  return {
    name: 'Discord: one gateway session, closed normally at shutdown',
    passed,
    detail: `${input.identifies} identify; closes ${closes.map((c) => `${c.code}${c.byClient ? ' by the bot' : ''}`).join(', ') || 'none'}`,
  };
}

/** The Discord invariants, in report order. */
export function checkDiscordInvariants(input: DiscordCheckInput): Invariant[] {
  return [
    messagesAnsweredOrBusy(input),
    commandsAcknowledgedInTime(input),
    discordLedgerAddsUp(input),
    gatewayClosedNormally(input),
  ];
}
