import type { SlackAdapter } from '@rt/adapter-slack';
import { actions, button, card, escapeText, type Runtime, section } from '@rt/core';
import { createRandom } from '../config/random.js';
import type { BotTally } from './bot-tally.js';
import { think } from './think.js';

/** The name of the demo's Discord adapter (`RtEvent.adapter` of its deliveries). */
export const DISCORD_ADAPTER_NAME = 'discord';

/** What the handlers need. */
export interface HandlerDeps {
  readonly slack: SlackAdapter;
  readonly tally: BotTally;
  /** Mean handler time; each call takes 50%..150% of it. */
  readonly handlerMs: number;
  readonly seed: number;
  /**
   * How long a Slack options load (`block_suggestion` of the `question` select, sync) takes, like
   * a lookup in a slow store; default 0. The Socket Mode run's deploy uses one in flight to hold
   * the draining runtime's socket open while it refuses what arrives.
   */
  readonly slackOptionsMs?: number;
  /** Called when a Slack options load starts (its handler runs). */
  readonly onSlackOptions?: () => void;
}

/** The choices `/ask`'s `question` option suggests while a Discord user types. */
export const QUESTION_CHOICES: readonly string[] = Object.freeze([
  'capacity',
  'cache misses',
  'canary deploys',
  'latency',
]);

/**
 * The bot's behaviour, one set of handlers for both platforms: an LLM-like answer to each mention,
 * as a card with an Approve button (in the Slack thread; a reply to the Discord message), an
 * answer to `/ask` (Slack ephemerally, through the command's `response_url`; Discord by replacing
 * the "thinking…" its deferral showed), and an acknowledgement of the `approve` button (Slack
 * ephemerally through the click's `response_url`; a Discord follow-up). `ctx.reply` does the right thing on both platforms where it can. Every deferred
 * handler waits on `ctx.signal` (so a detach timeout or shutdown stops it), runs inside its
 * platform's `HandlerGauge` (counted in the runtime-wide one too: the bound check independent of
 * the runtime), and records itself as handled only once its answer reached the platform. The
 * autocomplete of the `question` option (Discord `/ask`'s option; a Slack external select) is sync
 * (its choices are the answer) and holds no admission slot, so it runs outside the gauges.
 */
export function registerHandlers(runtime: Runtime, deps: HandlerDeps): void {
  const random = createRandom(deps.seed ^ 0x5eed);
  const thinkingTime = () => Math.round(deps.handlerMs * (0.5 + random.next()));
  const onDiscord = (adapter: string) => adapter === DISCORD_ADAPTER_NAME;
  const gaugeOf = (adapter: string) =>
    onDiscord(adapter) ? deps.tally.discordHandlers : deps.tally.handlers;

  runtime.onMention((ctx) =>
    gaugeOf(ctx.event.adapter).run(async () => {
      await think(thinkingTime(), ctx.signal);
      // A card on both platforms (Block Kit on Slack, Components V2 on Discord): the answer and
      // an Approve button, whose clicks the simulators send back as `approve`.
      const answer = `Here is what I found about "${ctx.event.text ?? ''}".`;
      await ctx.reply(
        card(
          { title: 'Answer', fallback: answer },
          section(escapeText(answer)),
          actions(button('approve', 'Approve', { value: 'yes', style: 'primary' })),
        ),
      );
      deps.tally.recordHandled(
        onDiscord(ctx.event.adapter) ? 'discordMessage' : 'event',
        ctx.event.id,
      );
    }),
  );

  runtime.onCommand('ask', (ctx) =>
    gaugeOf(ctx.event.adapter).run(async () => {
      await think(thinkingTime(), ctx.signal);
      const answer = `Answer to /ask ${ctx.event.text ?? ''}`;
      if (onDiscord(ctx.event.adapter)) {
        await ctx.reply(answer);
        deps.tally.recordHandled('discordCommand', ctx.event.id);
        return;
      }
      // Only the invoker sees it: the command's response_url.
      await ctx.ephemeral(answer);
      deps.tally.recordHandled('command', ctx.event.id);
    }),
  );

  runtime.onAction('approve', (ctx) =>
    gaugeOf(ctx.event.adapter).run(async () => {
      await think(thinkingTime(), ctx.signal);
      if (onDiscord(ctx.event.adapter)) {
        await ctx.reply('Approved. Thanks!');
        deps.tally.recordHandled('discordClick', ctx.event.id);
        return;
      }
      // Only the clicker sees it: the click's response_url.
      await ctx.ephemeral('Approved. Thanks!');
      deps.tally.recordHandled('click', ctx.event.id);
    }),
  );

  runtime.onSuggestion('question', async (ctx) => {
    const typed = (ctx.event.text ?? '').toLowerCase();
    const matches = QUESTION_CHOICES.filter((choice) => choice.startsWith(typed));
    if (onDiscord(ctx.event.adapter)) {
      return matches.map((choice) => ({ name: choice, value: choice }));
    }
    deps.onSlackOptions?.();
    await think(deps.slackOptionsMs ?? 0, ctx.signal);
    return matches.map((choice) => ({ text: { type: 'plain_text', text: choice }, value: choice }));
  });
}
