import { DiscordAPIError, HTTPError, type REST, type RequestData } from '@discordjs/rest';
import { DiscordCallError } from '../errors.js';

/** One REST call: method, route (from `discord-api-types` `Routes`) and request data. */
export interface RestCall {
  readonly method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  readonly route: `/${string}`;
  readonly data?: RequestData;
}

/** Wraps what `@discordjs/rest` threw in a `DiscordCallError` (keeping it as `cause`). */
function callError(call: RestCall, error: unknown): DiscordCallError {
  const what = `${call.method.toUpperCase()} ${call.route.replace(/\/webhooks\/(\d+)\/[^/]+/, '/webhooks/$1/…')}`;
  if (error instanceof DiscordAPIError) {
    return new DiscordCallError(`${what} failed: ${error.message}`, {
      status: error.status,
      ...(typeof error.code === 'number' ? { discordCode: error.code } : {}),
      cause: error,
    });
  }
  if (error instanceof HTTPError) {
    return new DiscordCallError(`${what} failed with HTTP ${error.status}`, {
      status: error.status,
      cause: error,
    });
  }
  return new DiscordCallError(`${what} failed: ${(error as Error)?.message ?? String(error)}`, {
    cause: error,
  });
}

/**
 * Makes one REST call with `signal`. Rejects with `signal.reason` when the signal aborted (before
 * or during the call: the request is cancelled), with `DiscordCallError` for anything Discord or
 * the network did. Interaction-token routes are hidden from error messages.
 */
export async function restCall<T>(
  rest: REST,
  call: RestCall,
  signal: AbortSignal | undefined,
): Promise<T> {
  signal?.throwIfAborted();
  try {
    return (await rest[call.method](call.route, {
      ...call.data,
      ...(signal !== undefined ? { signal } : {}),
    })) as T;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw callError(call, error);
  }
}
