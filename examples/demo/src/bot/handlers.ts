import type { SlackAdapter } from '@rt/adapter-slack';
import type { Runtime } from '@rt/core';
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
}

/**
 * The bot's behaviour: an LLM-like answer in the thread for each mention, an answer through
 * `response_url` for `/ask`, and an acknowledgement through `response_url` for the `approve`
 * button. Every handler waits on `ctx.signal` (so a detach timeout or shutdown stops it), runs
 * inside the tally's `HandlerGauge` (the bound check independent of the runtime), and records
 * itself as handled only once its answer reached Slack.
 *
 * The same mention and `/ask` handlers serve Discord (gateway): a mention is answered with a reply
 * to the message, `/ask` by replacing the "thinking…" its deferral showed (`ctx.reply` does the
 * right thing on both platforms); Discord deliveries run in their own gauge and tally kinds so
 * each platform's figures add up on their own.
 */
export function registerHandlers(runtime: Runtime, deps: HandlerDeps): void {
  const random = createRandom(deps.seed ^ 0x5eed);
  const thinkingTime = () => Math.round(deps.handlerMs * (0.5 + random.next()));

  const gauge = deps.tally.handlers;
  const onDiscord = (adapter: string) => adapter === DISCORD_ADAPTER_NAME;
  const gaugeOf = (adapter: string) => (onDiscord(adapter) ? deps.tally.discordHandlers : gauge);

  runtime.onMention((ctx) =>
    gaugeOf(ctx.event.adapter).run(async () => {
      await think(thinkingTime(), ctx.signal);
      await ctx.reply(`Here is what I found about "${ctx.event.text ?? ''}".`);
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
      await deps.slack.respond(ctx.event, answer, { signal: ctx.signal });
      deps.tally.recordHandled('command', ctx.event.id);
    }),
  );

  runtime.onAction('approve', (ctx) =>
    gauge.run(async () => {
      await think(thinkingTime(), ctx.signal);
      await deps.slack.respond(ctx.event, 'Approved. Thanks!', { signal: ctx.signal });
      deps.tally.recordHandled('click', ctx.event.id);
    }),
  );
}
