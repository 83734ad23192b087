/**
 * Every error @rt/adapter-slack throws. Each carries a stable, readonly string `code` (branch on it
 * with core's `hasErrorCode`) and passes `cause` through unchanged.
 */
import { RtError } from '@rt/core';

/** Base class of every Slack adapter error. `code` is stable across releases. */
export class SlackAdapterError extends RtError {}

/**
 * A request body could not be understood (bad JSON, a form without `payload` or `command`, an
 * unknown payload type, no installation id). The HTTP handler answers 400 and dispatches nothing.
 */
export class SlackRequestError extends SlackAdapterError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_SLACK_BAD_REQUEST', message, options);
  }
}

/** The token resolver returned no usable token for an installation (or threw: see `cause`). */
export class SlackTokenError extends SlackAdapterError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_SLACK_TOKEN', message, options);
  }
}

/**
 * The installation a delivery or call belongs to is not installed (never, or no longer: uninstalled
 * or its bot token revoked). An `installations` source rejects with it; the adapter answers such a
 * delivery without dispatching it (see `unknownInstallationAnswer`).
 */
export class SlackUnknownInstallationError extends SlackAdapterError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_SLACK_UNKNOWN_INSTALLATION', message, options);
  }
}

/** An outbound call has nowhere to go: the event has no channel, message, trigger or response URL. */
export class SlackTargetError extends SlackAdapterError {
  constructor(message: string) {
    super('RT_SLACK_NO_TARGET', message);
  }
}

/**
 * A direct HTTP call to Slack (a `response_url` post or a busy-signal Web API call) failed: a
 * non-2xx status, `ok: false`, a network error or the time budget ran out (see `cause`).
 */
export class SlackCallError extends SlackAdapterError {
  /** HTTP status when Slack answered, else `undefined`. */
  readonly status: number | undefined;
  /** Slack's `error` field when it answered `ok: false`. */
  readonly slackError: string | undefined;

  constructor(
    message: string,
    details: { status?: number; slackError?: string; cause?: unknown } = {},
  ) {
    super('RT_SLACK_CALL', message, { cause: details.cause });
    this.status = details.status;
    this.slackError = details.slackError;
  }
}

/**
 * A Socket Mode failure: the transport could not start because Slack refused the app token
 * (`invalid_auth`, `not_authed`, ... in `cause`; `runtime.start()` rejects with it and the
 * transport stops trying), or an envelope's ack could not be sent because the connection it
 * arrived on had closed (the `error` of an `ack_failed` notice).
 */
export class SlackSocketModeError extends SlackAdapterError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RT_SLACK_SOCKET_MODE', message, options);
  }
}
