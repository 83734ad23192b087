import { ACCEPTED_OUTCOMES } from '@rt/core';
import type { BotTally } from '../bot/bot-tally.js';
import { DISCORD_ADAPTER_NAME } from '../bot/handlers.js';
import type { Invariant } from '../summary/invariants.js';
import { countKinds, type DiscordItem } from './discord-plan.js';
import type { DiscordOutcome, DiscordRecord } from './discord-record.js';
import { DISCORD_ACK_TIMEOUT_MS } from './interaction-client.js';

/** Ephemeral message flag. */
const EPHEMERAL = 64;

/** What the Discord checks read. */
export interface DiscordCheckInput {
  readonly plan: readonly DiscordItem[];
  /** The simulator's record: HTTP answers and the fake REST's calls, by delivery. */
  readonly record: DiscordRecord;
  /** The bot's side: the runtime's observations per adapter, the Discord handlers' gauge. */
  readonly tally: BotTally;
  readonly gatewayCloses: readonly { readonly code: number; readonly byClient: boolean }[];
  readonly identifies: number;
  readonly stoppedEarly?: string;
}

function outcomesOf(input: DiscordCheckInput, kind: DiscordItem['kind']): DiscordOutcome[] {
  return [...input.record.outcomes.values()].filter((o) => o.item.kind === kind);
}

/**
 * Every planned mention was sent over the gateway and got exactly one visible answer: the
 * handler's reply, or the busy reply when the bound was full (the gateway delivers at most once).
 */
function messagesAnsweredOrBusy(input: DiscordCheckInput): Invariant {
  const planned = countKinds(input.plan).message;
  const n = { answered: 0, busy: 0, nothing: 0, twice: 0, sent: 0 };
  for (const outcome of outcomesOf(input, 'message')) {
    n.sent += 1;
    const shown = outcome.answers + outcome.busy;
    if (shown === 0) n.nothing += 1;
    else if (shown > 1) n.twice += 1;
    else if (outcome.answers === 1) n.answered += 1;
    else n.busy += 1;
  }
  return {
    name: 'Discord: every gateway mention answered once or told busy',
    passed:
      input.stoppedEarly === undefined && n.sent === planned && n.nothing === 0 && n.twice === 0,
    detail:
      `sent ${n.sent}/${planned}; ${n.answered} answered, ${n.busy} got the busy reply, ` +
      `${n.nothing} got nothing, ${n.twice} got two`,
  };
}

/**
 * Every planned interaction was POSTed and answered 200 within Discord's 3 s by the simulator's
 * clock (Discord shows "The application did not respond" otherwise), and every autocomplete got
 * its choices (type 8).
 */
function interactionsAnsweredInTime(input: DiscordCheckInput): Invariant {
  const counts = countKinds(input.plan);
  const planned = counts.command + counts.click + counts.suggestion;
  let sent = 0;
  let failed = 0;
  let slowest = 0;
  let noChoices = 0;
  for (const outcome of input.record.outcomes.values()) {
    if (outcome.item.kind === 'message') continue;
    sent += 1;
    const result = outcome.result;
    if (result !== undefined) slowest = Math.max(slowest, result.latencyMs);
    if (result?.kind !== 'response' || result.status !== 200 || result.answer === undefined) {
      failed += 1;
    } else if (
      outcome.item.kind === 'suggestion' &&
      (result.answer.type !== 8 || outcome.choices === 0)
    ) {
      noChoices += 1;
    }
  }
  return {
    name: "Discord: every interaction answered within Discord's 3 s",
    passed: input.stoppedEarly === undefined && sent === planned && failed === 0 && noChoices === 0,
    detail:
      `sent ${sent}/${planned} signed interactions; ${failed} without a 200 answer within ` +
      `${DISCORD_ACK_TIMEOUT_MS} ms (slowest ${slowest} ms); ${counts.suggestion} autocompletes, ` +
      `${noChoices} without choices`,
  };
}

/**
 * Discord never redelivers an interaction, so each one is either refused visibly (type 4,
 * ephemeral, the refusal text, and nothing else) or accepted (type 5 for `/ask`, type 6 for a
 * click) and then followed up exactly once at the fake REST (the `@original` edit; a follow-up).
 */
function interactionsFollowedUpOrBusy(input: DiscordCheckInput): Invariant {
  const n = { accepted: 0, once: 0, busy: 0, wrong: 0 };
  for (const kind of ['command', 'click'] as const) {
    const deferredType = kind === 'command' ? 5 : 6;
    for (const outcome of outcomesOf(input, kind)) {
      const answer = outcome.result?.kind === 'response' ? outcome.result.answer : undefined;
      if (answer?.type === deferredType) {
        n.accepted += 1;
        if (outcome.answers === 1 && outcome.busy === 0) n.once += 1;
        else n.wrong += 1;
      } else if (
        answer?.type === 4 &&
        (answer.flags & EPHEMERAL) !== 0 &&
        input.record.isRefusal(answer.content) &&
        outcome.answers === 0
      ) {
        n.busy += 1;
      } else {
        n.wrong += 1;
      }
    }
  }
  return {
    name: 'Discord: every refused interaction told busy, every accepted one followed up once',
    passed: n.wrong === 0 && n.once === n.accepted,
    detail:
      `/ask and clicks: ${n.accepted} accepted (type 5/6), ${n.once} of them followed up exactly ` +
      `once at the fake REST; ${n.busy} refused with an ephemeral busy answer (type 4, flags 64); ` +
      `${n.wrong} neither`,
  };
}

/**
 * The runtime's Discord ledger adds up against the simulator's: every accepted deferred delivery
 * completed, as many as the Discord handlers' own gauge entered and left, none threw; the
 * refusals the runtime made equal the busy answers users saw; no id handled twice; no REST call
 * the simulator cannot attribute to a delivery.
 */
function discordLedgerAddsUp(input: DiscordCheckInput): Invariant {
  const { tally, record } = input;
  const outcomes = tally.outcomesOf(DISCORD_ADAPTER_NAME);
  // Autocomplete is dispatched sync: accepted and completed, but it holds no slot or gauge entry.
  const sync = tally.finishedCount('autocomplete', 'completed');
  const accepted =
    tally.acceptedOf(DISCORD_ADAPTER_NAME) - (tally.admittedByShape.get('autocomplete') ?? 0);
  const completed = (outcomes.completed ?? 0) - sync;
  const otherEnds = ACCEPTED_OUTCOMES.filter((o) => o !== 'completed').reduce(
    (sum, o) => sum + (outcomes[o] ?? 0),
    0,
  );
  const rejected = outcomes['admission-rejected'] ?? 0;
  const shownBusy = [...record.outcomes.values()].filter((o) => o.busy > 0).length;
  const gauge = tally.discordHandlers;
  let twice = 0;
  for (const kind of ['discordMessage', 'discordCommand', 'discordClick'] as const) {
    for (const count of tally.handled[kind].values()) if (count > 1) twice += 1;
  }
  return {
    name: 'Discord: accepted = completed, refusals = busy shown, nothing handled twice',
    passed:
      accepted === completed &&
      otherEnds === 0 &&
      gauge.entered === accepted &&
      gauge.exited === accepted &&
      gauge.threw === 0 &&
      rejected === shownBusy &&
      twice === 0 &&
      record.stray === 0,
    detail:
      `runtime accepted ${accepted} deferred = completed ${completed} = handlers ` +
      `${gauge.entered}/${gauge.exited} (threw ${gauge.threw}), other ends ${otherEnds}, ` +
      `${sync} autocompletes sync; admission-rejected ${rejected} = busy shown ${shownBusy}; ` +
      `${twice} ids handled twice; ${record.stray} REST calls for no delivery`,
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
  const closeText = closes.map((c) => `${c.code}${c.byClient ? ' by the bot' : ''}`).join(', ');
  return {
    name: 'Discord: one gateway session, closed normally at shutdown',
    passed,
    detail: `${input.identifies} identify; closes ${closeText || 'none'}`,
  };
}

/** The Discord invariants, in report order. */
export function checkDiscordInvariants(input: DiscordCheckInput): Invariant[] {
  return [
    messagesAnsweredOrBusy(input),
    interactionsAnsweredInTime(input),
    interactionsFollowedUpOrBusy(input),
    discordLedgerAddsUp(input),
    gatewayClosedNormally(input),
  ];
}
