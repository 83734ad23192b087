/** The Slack adapter's stream options (`stream`): what they mean, their defaults, their checks. */
import { checkNonEmptyText, checkPositiveInteger } from '@rt/core/adapter';

/**
 * How the Slack adapter streams replies (`ctx.stream`). Slack's rate limits are per method and
 * workspace: `chat.update` is Tier 3 (about 50 a minute), the streaming methods are their own
 * methods (`chat.appendStream` Tier 4, about 100 a minute). The intervals below are per stream:
 * several concurrent streams in one workspace share the tier, and Slack's 429s (honoured through
 * `Retry-After`) pace them beyond that.
 */
export interface SlackStreamOptions {
  /**
   * Use Slack's native streaming (`chat.startStream` / `appendStream` / `stopStream`) where the
   * conversation allows it: a reply in a thread, to a user (the event's `user` and team) or in a
   * DM. Otherwise, or when false, a posted message grown with `chat.update`. Default true.
   */
  readonly native?: boolean;
  /** Least ms between two `chat.appendStream` calls of one stream. Default 1000. */
  readonly appendIntervalMs?: number;
  /** Least ms between two `chat.update` calls of one stream. Default 1500. */
  readonly updateIntervalMs?: number;
  /**
   * Most characters of one message on the update path; past it the reply continues in a new
   * message in the thread. Default 39000 (Slack refuses text over 40000 with `msg_too_long`).
   */
  readonly maxMessageChars?: number;
  /** The assistant thread status shown until the first text (assistant threads only). */
  readonly waitingStatus?: string;
}

/** Defaults of `SlackStreamOptions`. */
export const DEFAULT_SLACK_STREAM_OPTIONS: Readonly<Required<SlackStreamOptions>> = Object.freeze({
  native: true,
  appendIntervalMs: 1000,
  updateIntervalMs: 1500,
  maxMessageChars: 39_000,
  waitingStatus: 'is typing…',
});

/** `options` over the defaults, validated (`TypeError`/`RangeError` naming the option). */
export function resolveSlackStreamOptions(
  options: SlackStreamOptions = {},
): Readonly<Required<SlackStreamOptions>> {
  const resolved = { ...DEFAULT_SLACK_STREAM_OPTIONS };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
  }
  if (typeof resolved.native !== 'boolean') throw new TypeError('stream.native must be a boolean');
  checkPositiveInteger('stream.appendIntervalMs', resolved.appendIntervalMs);
  checkPositiveInteger('stream.updateIntervalMs', resolved.updateIntervalMs);
  checkPositiveInteger('stream.maxMessageChars', resolved.maxMessageChars);
  if (resolved.maxMessageChars > 40_000) {
    throw new RangeError(
      'stream.maxMessageChars must be at most 40000 (Slack refuses longer text)',
    );
  }
  checkNonEmptyText('stream.waitingStatus', resolved.waitingStatus);
  return Object.freeze(resolved);
}
