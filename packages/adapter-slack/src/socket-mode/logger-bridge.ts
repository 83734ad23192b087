import { type Logger, LogLevel } from '@slack/socket-mode';
import type { SocketModeLogLevel } from './options.js';

const ORDER: readonly SocketModeLogLevel[] = ['debug', 'info', 'warn', 'error'];

const LIBRARY_LEVEL: Readonly<Record<SocketModeLogLevel, LogLevel>> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

function dropped(): void {}

function text(parts: readonly unknown[]): string {
  return parts
    .map((part) => (part instanceof Error ? part.message : String(part)))
    .join(' ')
    .slice(0, 2000);
}

/**
 * A `@slack/logger` `Logger` for the Socket Mode client that turns each line at or above `level`
 * into a call of `emit(level, message)` (the adapter emits it as a `socket_mode_log` notice) and
 * drops the rest, so the library never writes to the console. Messages are cut at 2000
 * characters. `setLevel` and `setName` are accepted and ignored: the level is the adapter's.
 * Never throws (a failing `emit` is contained).
 */
export function loggerBridge(
  level: SocketModeLogLevel,
  emit: (level: SocketModeLogLevel, message: string) => void,
): Logger {
  const threshold = ORDER.indexOf(level);
  // A level below the threshold is one shared no-op: the library calls `debug` several times per
  // envelope, and a dropped line then costs no rest-parameter array and no level lookup.
  const at = (lineLevel: SocketModeLogLevel): ((...parts: unknown[]) => void) =>
    ORDER.indexOf(lineLevel) < threshold
      ? dropped
      : (...parts) => {
          try {
            emit(lineLevel, text(parts));
          } catch {
            // Logging must never break the client.
          }
        };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    setLevel: () => {},
    getLevel: () => LIBRARY_LEVEL[level],
    setName: () => {},
  };
}
