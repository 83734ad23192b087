import type { FakeDiscordRejection } from '@rt/testing/discord';
import type { FakeSlackRejection } from '@rt/testing/slack';
import type { Invariant } from './invariants.js';

/** What the platform fakes validated and refused during the run. */
export interface PayloadCheckInput {
  readonly slack: { readonly validated: number; readonly rejected: readonly FakeSlackRejection[] };
  readonly discord: {
    readonly validated: number;
    readonly rejected: readonly FakeDiscordRejection[];
  };
}

/**
 * Every payload the bots rendered (cards, texts, busy signals, callbacks) was accepted by the
 * platform fakes, which validate shapes and limits as Slack and Discord do: a refused one would
 * be a message users never saw.
 */
export function renderedPayloadsAccepted(input: PayloadCheckInput): Invariant {
  const refused = input.slack.rejected.length + input.discord.rejected.length;
  const first = input.slack.rejected[0]?.errors[0] ?? input.discord.rejected[0]?.errors[0];
  return {
    name: 'every rendered payload accepted by the platform fakes',
    passed: refused === 0 && input.slack.validated + input.discord.validated > 0,
    detail:
      `${input.slack.validated} Slack and ${input.discord.validated} Discord payloads validated; ` +
      `${refused} refused${first !== undefined ? ` (first: ${first})` : ''}`,
  };
}
