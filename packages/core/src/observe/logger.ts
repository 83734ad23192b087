/**
 * The logger rt writes its warnings and errors to when nobody observes it (`RuntimeOptions.logger`):
 * the shape, the stderr default, and the redaction every line goes through.
 */

/** The fields of one log line: flat, primitive, already redacted. */
export type LogFields = Readonly<Record<string, string | number | boolean>>;

/**
 * What rt logs to. Called as `logger.warn(fields, message)` and `logger.error(fields, message)`:
 * pino's (and bunyan's) order, merging object first; `console` fits too (it prints the object,
 * then the message). A method that throws is contained.
 */
export interface RtLogger {
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
}

/** Where `createStderrLogger` writes: anything with `write(text)`, such as `process.stderr`. */
export interface LogStream {
  write(text: string): unknown;
}

/** Options of `createStderrLogger`. */
export interface StderrLoggerOptions {
  /** Where lines go. Default `process.stderr`. */
  readonly stream?: LogStream | undefined;
}

/**
 * The default logger: one line per call, `rt <level>: <message> key=value ...`, to `stream`
 * (default `process.stderr`). Values with spaces or quotes are JSON-quoted.
 */
export function createStderrLogger(options: StderrLoggerOptions = {}): RtLogger {
  const line = (level: string, fields: LogFields, message: string): void => {
    const stream = options.stream ?? process.stderr;
    const parts = Object.entries(fields).map(([key, value]) => `${key}=${formatValue(value)}`);
    stream.write(`rt ${level}: ${[message, ...parts].join(' ')}\n`);
  };
  return {
    warn: (fields, message) => line('warn', fields, message),
    error: (fields, message) => line('error', fields, message),
  };
}

function formatValue(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

/** True for something usable as an `RtLogger` (both methods present). */
export function isRtLogger(value: unknown): value is RtLogger {
  const candidate = value as Partial<RtLogger> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.warn === 'function' &&
    typeof candidate.error === 'function'
  );
}

/**
 * Credentials a message may carry, each replaced by `<redacted>`: Slack tokens (`xoxb-`, `xoxp-`,
 * `xapp-`, ...), `Bearer`/`Bot` authorization values, and the token part of a Discord webhook or
 * interaction callback URL (`/webhooks/<id>/<token>`, `/interactions/<id>/<token>`).
 */
const SECRETS: readonly (readonly [RegExp, string])[] = [
  [/\bx(?:ox[a-z]|app)-[A-Za-z0-9-]+/g, '<redacted>'],
  [/\b(Bearer|Bot)\s+[A-Za-z0-9._~+/=-]+/g, '$1 <redacted>'],
  [/\/(webhooks|interactions)\/(\d+)\/[A-Za-z0-9._-]+/g, '/$1/$2/<redacted>'],
];

/** Longest value a line carries; longer ones are cut with `...`. */
const MAX_VALUE_LENGTH = 300;

/** `text` with every known credential shape replaced and cut to a bounded length. */
export function redact(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRETS) out = out.replace(pattern, replacement);
  return out.length > MAX_VALUE_LENGTH ? `${out.slice(0, MAX_VALUE_LENGTH)}...` : out;
}

/**
 * The loggable part of an error: its name, `code` and message (redacted), never its other
 * properties (a request's headers or URL may hold credentials) or its stack.
 */
export function errorFields(error: unknown): Record<string, string> {
  if (error === undefined) return {};
  if (!(error instanceof Error)) return { error: redact(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    error: redact(`${error.name}: ${error.message}`),
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
  };
}
