import type { SlackAdapter } from '@rt/adapter-slack';
import { type HandlerContext, type Runtime, StreamInterruptedError } from '@rt/core';
import { DEFAULT_STREAM_OPTIONS } from '@rt/core/adapter';
import { createRandom } from '../config/random.js';
import type { BotTally, HandledKind } from './bot-tally.js';
import { streamModel } from './model.js';
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

/**
 * What a streamed answer ends with when the runtime stops its handler (a deploy's grace ran out):
 * `ctx.stream`'s `interruptedMarker`, set by the bot (the simulators check for it).
 */
export const STREAM_INTERRUPTED_MARKER = '\n\n_(interrupted: please ask again)_';

/** The ends a streamed answer may show besides its whole text (what the simulators check for). */
export const STREAM_MARKERS = Object.freeze({
  interrupted: STREAM_INTERRUPTED_MARKER,
  error: DEFAULT_STREAM_OPTIONS.errorMarker,
});

/** What `/ask` and a click answer when the runtime stops their handler before they answered. */
export const INTERRUPTED_NOTICE =
  'Sorry, I was interrupted before I could answer. Please try again.';

/** How long that notice may take once the handler's own signal has aborted (below `shutdownAbandonMs`). */
const NOTICE_TIMEOUT_MS = 2000;

/**
 * Thinks `ms` like `think`; resolves false instead of throwing when `signal` aborted (the handler
 * was stopped: a shutdown's grace ran out), so the handler can say so before it returns.
 */
async function thought(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await think(ms, signal);
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    throw error;
  }
}

/**
 * Tells the user of a stopped `/ask` or click that no answer is coming, under its own short
 * deadline (the handler's signal has aborted), and records the handler as interrupted.
 */
async function sayInterrupted(
  ctx: HandlerContext,
  discord: boolean,
  tally: BotTally,
  kind: HandledKind,
): Promise<void> {
  const signal = AbortSignal.timeout(NOTICE_TIMEOUT_MS);
  if (discord) await ctx.reply(INTERRUPTED_NOTICE, { signal });
  else await ctx.ephemeral(INTERRUPTED_NOTICE, { signal });
  tally.recordInterrupted(kind, ctx.event.id);
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
 * streamed with `ctx.stream` from a seeded model (`streamModel`: the words of `modelAnswer(id)`
 * over the think time; in the Slack thread, natively where the conversation allows it, else by
 * `chat.update`; on Discord a reply grown by edits), an answer to `/ask` (Slack ephemerally,
 * through the command's `response_url`; Discord by replacing the "thinking…" its deferral showed),
 * and an acknowledgement of the `approve` button (Slack ephemerally through the click's
 * `response_url`; a Discord follow-up). Every deferred handler waits on `ctx.signal` (so a detach
 * timeout or shutdown stops it): a stopped stream ends with `STREAM_INTERRUPTED_MARKER`, a stopped
 * `/ask` or click tells its user `INTERRUPTED_NOTICE`. Each runs inside its platform's
 * `HandlerGauge` (counted in the runtime-wide one too: the bound check independent of the
 * runtime), and records itself as handled only once its answer reached the platform (as
 * interrupted when it was stopped). The autocomplete of the `question` option (Discord `/ask`'s
 * option; a Slack external select) is sync (its choices are the answer) and holds no admission
 * slot, so it runs outside the gauges.
 */
export function registerHandlers(runtime: Runtime, deps: HandlerDeps): void {
  const random = createRandom(deps.seed ^ 0x5eed);
  const thinkingTime = () => Math.round(deps.handlerMs * (0.5 + random.next()));
  const onDiscord = (adapter: string) => adapter === DISCORD_ADAPTER_NAME;
  const gaugeOf = (adapter: string) =>
    onDiscord(adapter) ? deps.tally.discordHandlers : deps.tally.handlers;

  runtime.onMention((ctx) =>
    gaugeOf(ctx.event.adapter).run(async () => {
      const kind = onDiscord(ctx.event.adapter) ? 'discordMessage' : 'event';
      // The model answers over the think time, word by word, seeded by the delivery id.
      const model = streamModel(ctx.event.id, thinkingTime(), ctx.signal, () => {
        deps.tally.modelStops += 1;
      });
      try {
        await ctx.stream(model, { interruptedMarker: STREAM_INTERRUPTED_MARKER });
      } catch (error) {
        // Stopped mid-answer: the reply already ends with the marker; nothing else to say.
        if (!(error instanceof StreamInterruptedError)) throw error;
        deps.tally.recordInterrupted(kind, ctx.event.id);
        return;
      }
      deps.tally.recordHandled(kind, ctx.event.id);
    }),
  );

  runtime.onCommand('ask', (ctx) =>
    gaugeOf(ctx.event.adapter).run(async () => {
      const discord = onDiscord(ctx.event.adapter);
      if (!(await thought(thinkingTime(), ctx.signal))) {
        await sayInterrupted(ctx, discord, deps.tally, discord ? 'discordCommand' : 'command');
        return;
      }
      const answer = `Answer to /ask ${ctx.event.text ?? ''}`;
      if (discord) {
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
      const discord = onDiscord(ctx.event.adapter);
      if (!(await thought(thinkingTime(), ctx.signal))) {
        await sayInterrupted(ctx, discord, deps.tally, discord ? 'discordClick' : 'click');
        return;
      }
      if (discord) {
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
