import type { SlackAdapter } from '@rt/adapter-slack';
import type { Runtime } from '@rt/core';
import { createRandom } from '../config/random.js';
import type { BotTally } from './bot-tally.js';
import { think } from './think.js';

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
 */
export function registerHandlers(runtime: Runtime, deps: HandlerDeps): void {
  const random = createRandom(deps.seed ^ 0x5eed);
  const thinkingTime = () => Math.round(deps.handlerMs * (0.5 + random.next()));

  const gauge = deps.tally.handlers;

  runtime.onMention((ctx) =>
    gauge.run(async () => {
      await think(thinkingTime(), ctx.signal);
      await ctx.reply(`Here is what I found about "${ctx.event.text ?? ''}".`);
      deps.tally.recordHandled('event', ctx.event.id);
    }),
  );

  runtime.onCommand('ask', (ctx) =>
    gauge.run(async () => {
      await think(thinkingTime(), ctx.signal);
      await deps.slack.respond(ctx.event, `Answer to /ask ${ctx.event.text ?? ''}`, {
        signal: ctx.signal,
      });
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
