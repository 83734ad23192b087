/**
 * `/rt-ping`: dispatched sync (see `bot.ts`), so its return value is the Socket Mode
 * acknowledgement's payload: Slack shows it to the user at once, no `response_url` needed.
 */
import type { HandlerContext, Runtime } from '@rt/core';

/** The slash command's name, as configured in the app manifest. */
export const PING_COMMAND = '/rt-ping';

/** Answers with the runtime's received and accepted counts. */
export function pingCommand(runtime: Pick<Runtime, 'stats'>) {
  return (_ctx: HandlerContext): string => {
    const { received, accepted } = runtime.stats();
    return `pong (received ${received}, accepted ${accepted})`;
  };
}
