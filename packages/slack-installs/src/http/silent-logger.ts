import { type Logger, LogLevel } from '@slack/logger';

/**
 * A `@slack/logger` `Logger` that prints nothing. The Slack libraries log request errors that can
 * carry request bodies (an OAuth exchange's `client_secret`); this package reports through typed
 * notices instead, so nothing they would log reaches a console.
 */
export function silentLogger(): Logger {
  let level = LogLevel.ERROR;
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
