import { WebClient } from '@slack/web-api';

/** Where a call's `AbortSignal` rides along with its arguments (never serialised: a symbol key). */
const SIGNAL = Symbol('rt.slack.signal');

type Config = { data?: Record<PropertyKey, unknown>; signal?: AbortSignal };

/**
 * A `WebClient` whose calls can carry an `AbortSignal` down to their HTTP request: pass the
 * arguments through `withSignal`. `@slack/web-api` 7 offers no per-call signal; this subclass
 * hooks the client's own body serialisation step (`serializeApiCallData`, which sees each
 * request's arguments) and sets axios' `signal` from them, so an abort really cancels the request
 * in flight, retries included. If a future library version renames that step, calls still reject
 * at the abort (`abortable`), and the test `passes the signal to the HTTP request` fails.
 */
export class SignalWebClient extends WebClient {}

const serialize = (WebClient.prototype as unknown as Record<string, unknown>).serializeApiCallData;
if (typeof serialize === 'function') {
  Object.defineProperty(SignalWebClient.prototype, 'serializeApiCallData', {
    configurable: true,
    writable: true,
    value(this: WebClient, config: Config): Config {
      const signal = config.data?.[SIGNAL] as AbortSignal | undefined;
      const serialized = (serialize as (config: Config) => Config).call(this, config);
      if (signal !== undefined) serialized.signal = signal;
      return serialized;
    },
  });
}

/** `args` carrying `signal` for a `SignalWebClient` call (unchanged without a signal). */
export function withSignal<T extends object>(args: T, signal: AbortSignal | undefined): T {
  return signal === undefined ? args : { ...args, [SIGNAL]: signal };
}

/**
 * True when `error` (a failed attempt of a `WebClient` call) comes from a request whose signal
 * had aborted: retrying it is pointless, so the retry policy stops at once.
 */
export function isAbortedAttempt(error: unknown): boolean {
  const { original } = error as { original?: unknown };
  const config = ((original ?? error) as { config?: Config } | undefined)?.config;
  return config?.signal?.aborted === true;
}
