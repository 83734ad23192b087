/**
 * `/status`, on either platform: the runtime's live counts, per adapter. Deferred on both: Slack
 * got its empty 200 and Discord its type 5 before this runs; `ctx.reply` answers through the
 * platform's own follow-up path (Slack: a message in the channel; Discord: the "thinking…" message
 * is replaced).
 */
import type { HandlerContext, Runtime, RuntimeStats } from '@rt/core';

/** The command's name on both platforms (Slack `/status`, Discord `/status`). */
export const STATUS_COMMAND = 'status';

/** One line per count; outcomes that never happened are left out. */
export function formatStats(stats: RuntimeStats): string {
  const outcomes = Object.entries(stats.outcomes)
    .filter(([, count]) => count > 0)
    .map(([outcome, count]) => `${outcome}=${count}`)
    .join(', ');
  return [
    'rt status (one runtime, Slack and Discord)',
    `received: ${stats.received}, accepted: ${stats.accepted}`,
    `in flight: ${stats.detachedInFlight} detached, ${stats.syncInFlight} sync`,
    `outcomes: ${outcomes.length > 0 ? outcomes : 'none yet'}`,
  ].join('\n');
}

/** Handler of the `status` command, on every adapter. */
export function statusCommand(runtime: Pick<Runtime, 'stats'>) {
  return async (ctx: HandlerContext): Promise<void> => {
    await ctx.reply(formatStats(runtime.stats()));
  };
}
