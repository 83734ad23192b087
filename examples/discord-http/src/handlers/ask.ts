import { commandInvocationOf } from '@rt/adapter-discord';
import type { Handler } from '@rt/core';
import { HELPFUL_BUTTON, TOPIC_OPTION } from '../commands.js';

/**
 * `/ask topic:<t>`, deferred: Discord already shows "thinking…" (type 5); this handler takes its
 * time (`workMs`, honouring its signal) and then replaces that message with the answer and a
 * button. However long it takes, the interaction was answered in milliseconds.
 */
export function askCommand(workMs: number): Handler {
  return async (ctx) => {
    const topic = String(commandInvocationOf(ctx.event).options[TOPIC_OPTION] ?? 'nothing');
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, workMs);
      ctx.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(ctx.signal.reason);
        },
        { once: true },
      );
    });
    await ctx.reply({
      text: `Here is what I know about **${topic}**: rt answered your command before thinking about it.`,
      extra: {
        components: [
          {
            type: 1,
            components: [{ type: 2, style: 1, label: 'Helpful', custom_id: HELPFUL_BUTTON }],
          },
        ],
      },
    });
  };
}
