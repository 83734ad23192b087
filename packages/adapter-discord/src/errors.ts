/**
 * Every error @rt/adapter-discord throws. Each carries a stable, readonly string `code` (branch on
 * it with core's `hasErrorCode`) and passes `cause` through unchanged.
 */
import { RtError } from '@rt/core';

/** Base class of every Discord adapter error. `code` is stable across releases. */
export class DiscordAdapterError extends RtError {}

/**
 * An interaction request could not be understood: bad JSON, not an object, an unknown interaction
 * type, a missing `data`, `id` or `token`. The HTTP handler answers 400 and dispatches nothing.
 */
export class DiscordRequestError extends DiscordAdapterError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_DISCORD_BAD_REQUEST', message, options);
  }
}

/**
 * An outbound call has nowhere to go: the event is no interaction (no token), has no channel or no
 * message, or `reply` was called from a sync handler before the interaction was answered.
 */
export class DiscordTargetError extends DiscordAdapterError {
  constructor(message: string) {
    super('RT_DISCORD_NO_TARGET', message);
  }
}

/**
 * An outbound REST call failed: Discord answered an error (`status` and Discord's JSON error
 * `discordCode`, e.g. 10062 "Unknown interaction"), the network failed, or the time budget ran out
 * (see `cause`, the `@discordjs/rest` error).
 */
export class DiscordCallError extends DiscordAdapterError {
  /** HTTP status when Discord answered, else `undefined`. */
  readonly status: number | undefined;
  /** Discord's JSON error code (`50001`, `10062`, ...) when it sent one. */
  readonly discordCode: number | undefined;

  constructor(
    message: string,
    details: { status?: number; discordCode?: number; cause?: unknown } = {},
  ) {
    super('RT_DISCORD_CALL', message, { cause: details.cause });
    this.status = details.status;
    this.discordCode = details.discordCode;
  }
}

/**
 * The gateway could not start: login failed (a bad token, `GET /gateway/bot` failing), the client
 * was not ready within `gateway.readyTimeoutMs`, or the gateway was already closed (see `cause`).
 */
export class DiscordGatewayError extends DiscordAdapterError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_DISCORD_GATEWAY', message, options);
  }
}
