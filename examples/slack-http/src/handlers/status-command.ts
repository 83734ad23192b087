/**
 * `/rt-status`: answers through the command's `response_url` (the command is acknowledged with an
 * empty 200 before this runs, under deferred dispatch) with the runtime's live counts.
 */

import type { SlackAdapter } from '@rt/adapter-slack';
import type { HandlerContext, Runtime, RuntimeStats } from '@rt/core';

/** The slash command's name, as configured in the app manifest. */
export const STATUS_COMMAND = '/rt-status';

/** One line per count; outcomes that never happened are left out. */
export function formatStats(stats: RuntimeStats): string {
  const outcomes = Object.entries(stats.outcomes)
    .filter(([, count]) => count > 0)
    .map(([outcome, count]) => `${outcome}=${count}`)
    .join(', ');
  return [
    '*rt status*',
    `received: ${stats.received}, accepted: ${stats.accepted}`,
    `in flight: ${stats.detachedInFlight} detached, ${stats.syncInFlight} sync, ${stats.parked} parked`,
    `outcomes: ${outcomes.length > 0 ? outcomes : 'none yet'}`,
    `shutting down: ${stats.shuttingDown ? 'yes' : 'no'}`,
  ].join('\n');
}

export function statusCommand(runtime: Pick<Runtime, 'stats'>) {
  return async (ctx: HandlerContext): Promise<void> => {
    const slack = ctx.adapter as SlackAdapter;
    await slack.respond(ctx.event, formatStats(runtime.stats()), { signal: ctx.signal });
  };
}
