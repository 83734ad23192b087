import type { FakeDiscordCall, FakeDiscordRest } from '@rt/testing/discord';
import type { DiscordItem, DiscordKind } from './discord-plan.js';
import type { InteractionResult } from './interaction-client.js';

/** What Discord showed for one delivery: the simulator's record, never the bot's word. */
export interface DiscordOutcome {
  readonly item: DiscordItem;
  /** How the interaction's HTTP POST ended; `undefined` for gateway messages (nothing to answer). */
  result: InteractionResult | undefined;
  /**
   * Handler answers that reached the fake REST: replies to the message (gateway), `@original`
   * edits of the "thinking…" message (commands), follow-ups (clicks). Refusal texts excluded.
   */
  answers: number;
  /**
   * Refusals users saw: the busy reply to a message, a type 4 ephemeral answer with a refusal text,
   * or a late refusal edit / follow-up.
   */
  busy: number;
  /** Autocomplete: the choices of the type 8 answer. */
  choices: number;
}

/** Live counts for the view and the summary, by kind. */
export interface DiscordCounts {
  readonly sent: Record<DiscordKind, number>;
  readonly answered: Record<DiscordKind, number>;
  readonly busy: Record<DiscordKind, number>;
}

function contentOf(call: FakeDiscordCall): unknown {
  const body = call.body as { content?: unknown; data?: { content?: unknown } } | undefined;
  return body?.content ?? body?.data?.content;
}

/**
 * The Discord simulator's ledger: each delivery it sent, how each interaction POST was answered,
 * and every call the fake REST received, folded in incrementally (`poll`) and attributed to the
 * delivery it belongs to: a reply by its `message_reference`, an edit or follow-up by the
 * interaction token it was made with. Calls nobody owns are counted as stray.
 */
export class DiscordRecord {
  readonly outcomes = new Map<string, DiscordOutcome>();
  /** Bot REST calls (messages, edits, follow-ups) attributed to no delivery. */
  stray = 0;
  readonly #byToken = new Map<string, DiscordOutcome>();
  readonly #rest: FakeDiscordRest;
  readonly #refusalTexts: readonly string[];
  #cursor = 0;

  constructor(rest: FakeDiscordRest, refusalTexts: readonly string[]) {
    this.#rest = rest;
    this.#refusalTexts = refusalTexts;
  }

  /** Whether `text` is one of the adapter's refusal texts (busy, unavailable). */
  isRefusal(text: unknown): boolean {
    return typeof text === 'string' && this.#refusalTexts.includes(text);
  }

  /** Records a delivery as sent; `token` for interactions. */
  add(item: DiscordItem, token?: string): DiscordOutcome {
    const outcome: DiscordOutcome = { item, result: undefined, answers: 0, busy: 0, choices: 0 };
    this.outcomes.set(item.id, outcome);
    if (token !== undefined) this.#byToken.set(token, outcome);
    return outcome;
  }

  /** Records how an interaction's POST was answered. */
  recordResult(outcome: DiscordOutcome, result: InteractionResult): void {
    outcome.result = result;
    const answer = result.kind === 'response' ? result.answer : undefined;
    if (answer?.type === 4 && this.isRefusal(answer.content)) outcome.busy += 1;
    if (answer?.type === 8) outcome.choices = answer.choices.length;
  }

  /** Folds in the REST calls that arrived since the last poll. */
  poll(): void {
    const calls = this.#rest.calls;
    for (; this.#cursor < calls.length; this.#cursor += 1) {
      const call = calls[this.#cursor]!;
      let owner: DiscordOutcome | undefined;
      if (call.route === 'POST /channels/:channel/messages') {
        const ref = (call.body as { message_reference?: { message_id?: string } } | undefined)
          ?.message_reference;
        owner = ref?.message_id === undefined ? undefined : this.outcomes.get(ref.message_id);
      } else if (
        call.route === 'PATCH /webhooks/:application/:token/messages/:message' ||
        call.route === 'POST /webhooks/:application/:token'
      ) {
        owner = this.#byToken.get(call.params.token ?? '');
      } else {
        continue;
      }
      if (owner === undefined) this.stray += 1;
      else if (this.isRefusal(contentOf(call))) owner.busy += 1;
      else owner.answers += 1;
    }
  }

  /** Counts by kind (call `poll` first for the latest). */
  counts(): DiscordCounts {
    const zero = (): Record<DiscordKind, number> => ({
      message: 0,
      command: 0,
      click: 0,
      suggestion: 0,
    });
    const counts = { sent: zero(), answered: zero(), busy: zero() };
    for (const outcome of this.outcomes.values()) {
      const kind = outcome.item.kind;
      counts.sent[kind] += 1;
      if (outcome.answers > 0 || outcome.choices > 0) counts.answered[kind] += 1;
      else if (outcome.busy > 0) counts.busy[kind] += 1;
    }
    return counts;
  }
}
