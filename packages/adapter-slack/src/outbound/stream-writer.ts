import type { PostedMessage, RtEvent } from '@rt/core';
import {
  type StreamEnd,
  StreamRateLimitedError,
  type StreamWriter,
  type StreamWriterLimits,
} from '@rt/core/adapter';
import type { WebClient } from '@slack/web-api';
import { assistantThreadOf } from '../assistant/assistant-thread.js';
import { SlackTargetError } from '../errors.js';
import type { SlackEventCallback } from '../parse/payload-types.js';
import { withSignal } from './signal-web-client.js';
import type { SlackStreamOptions } from './stream-options.js';
import { slackRetryAfterMs, waitedByClient } from './stream-rate-limit.js';

/** `chat.appendStream`'s `markdown_text` limit per call. */
const APPEND_MAX_CHARS = 12_000;

/** Who a native stream is for: the event's user and their team. */
function recipientOf(event: RtEvent): { user: string; team: string } | undefined {
  if (event.shape !== 'event_callback' || event.user === undefined) return undefined;
  const body = event.payload as SlackEventCallback & { team_id?: unknown };
  const inner = body.event as { user_team?: unknown; team?: unknown };
  const team = [inner.user_team, inner.team, body.team_id].find(
    (value): value is string => typeof value === 'string' && value.length > 0,
  );
  return team === undefined ? undefined : { user: event.user, team };
}

type ClientFor = (event: RtEvent, signal?: AbortSignal) => Promise<WebClient>;

/**
 * The Slack `StreamWriter` of one streamed reply to `event`, on the adapter's bounded outbound
 * (its `WebClient`s, their timeout and retry policy). Path `slack-stream`: `chat.startStream`
 * with the recipient, then `chat.appendStream`, ended by `chat.stopStream` (with the marker).
 * Path `slack-update`: `chat.postMessage` in the thread, then `chat.update` with the whole text,
 * continued in a new message past `maxMessageChars`. When `chat.startStream` is refused (not a
 * rate limit: an older workspace, a missing scope), the writer falls back to the update path for
 * that write and the rest of the stream. In an assistant thread, `waiting` sets the thread's
 * status. A rate-limit answer becomes `StreamRateLimitedError` with Slack's `Retry-After`.
 */
export class SlackStreamWriter implements StreamWriter {
  readonly #clientFor: ClientFor;
  readonly #event: RtEvent;
  readonly #options: Readonly<Required<SlackStreamOptions>>;
  readonly #channel: string;
  readonly #thread: string | undefined;
  readonly #recipient: { user: string; team: string } | undefined;
  #native: boolean;
  /** The current message: its ts and (update path) its text. */
  #ts: string | undefined;
  #text = '';

  constructor(
    clientFor: ClientFor,
    event: RtEvent,
    options: Readonly<Required<SlackStreamOptions>>,
  ) {
    const channel = event.channel;
    if (channel === undefined) throw new SlackTargetError(`event ${event.shape} has no channel`);
    this.#clientFor = clientFor;
    this.#event = event;
    this.#options = options;
    this.#channel = channel;
    this.#thread = event.thread;
    this.#recipient = recipientOf(event);
    this.#native =
      options.native &&
      this.#thread !== undefined &&
      (channel.startsWith('D') || this.#recipient !== undefined);
  }

  get path(): string {
    return this.#native ? 'slack-stream' : 'slack-update';
  }

  get limits(): StreamWriterLimits {
    return this.#native
      ? { minIntervalMs: this.#options.appendIntervalMs, maxCharsPerWrite: APPEND_MAX_CHARS }
      : {
          minIntervalMs: this.#options.updateIntervalMs,
          maxCharsPerWrite: this.#options.maxMessageChars,
        };
  }

  room(): number {
    if (this.#native) return APPEND_MAX_CHARS;
    const left = this.#options.maxMessageChars - this.#text.length;
    return this.#ts === undefined || left <= 0 ? this.#options.maxMessageChars : left;
  }

  async waiting(signal: AbortSignal): Promise<void> {
    const thread = assistantThreadOf(this.#event);
    if (thread === undefined) return;
    const client = await this.#clientFor(this.#event, signal);
    await client.assistant.threads.setStatus(
      withSignal(
        {
          channel_id: thread.channel,
          thread_ts: thread.threadTs,
          status: this.#options.waitingStatus,
        },
        signal,
      ),
    );
  }

  async write(delta: string, signal: AbortSignal): Promise<PostedMessage> {
    return this.#rateLimited(async () => {
      const client = await this.#clientFor(this.#event, signal);
      if (this.#native) {
        if (this.#ts === undefined) {
          const started = await this.#startStream(client, delta, signal);
          if (started) return this.#posted();
        } else {
          await client.chat.appendStream(
            withSignal({ channel: this.#channel, ts: this.#ts, markdown_text: delta }, signal),
          );
          return this.#posted();
        }
      }
      await this.#grow(client, delta, signal);
      return this.#posted();
    });
  }

  async finish(delta: string, end: StreamEnd, signal: AbortSignal): Promise<PostedMessage> {
    const tail = end.kind === 'completed' ? delta : delta + end.marker;
    return this.#rateLimited(async () => {
      const client = await this.#clientFor(this.#event, signal);
      if (this.#native && this.#ts !== undefined) {
        await client.chat.stopStream(
          withSignal(
            {
              channel: this.#channel,
              ts: this.#ts,
              ...(tail.length > 0 ? { markdown_text: tail } : {}),
            },
            signal,
          ),
        );
        return this.#posted();
      }
      if (tail.length > 0) {
        this.#native = false;
        await this.#grow(client, tail, signal);
      }
      return this.#posted();
    });
  }

  /** Starts the native stream; false when Slack refused it (the update path takes over). */
  async #startStream(client: WebClient, delta: string, signal: AbortSignal): Promise<boolean> {
    try {
      const started = await client.chat.startStream(
        withSignal(
          {
            channel: this.#channel,
            thread_ts: this.#thread as string,
            markdown_text: delta,
            ...(this.#recipient !== undefined
              ? { recipient_user_id: this.#recipient.user, recipient_team_id: this.#recipient.team }
              : {}),
          },
          signal,
        ),
      );
      this.#ts = started.ts;
      return true;
    } catch (error) {
      const platform = (error as { code?: unknown }).code === 'slack_webapi_platform_error';
      if (!platform || slackRetryAfterMs(error) !== undefined) throw error;
      this.#native = false;
      return false;
    }
  }

  /** Update path: a new message when there is none or it is full, else `chat.update`. */
  async #grow(client: WebClient, delta: string, signal: AbortSignal): Promise<void> {
    const full = this.#text.length + delta.length > this.#options.maxMessageChars;
    if (this.#ts === undefined || full) {
      const posted = await client.chat.postMessage(
        withSignal(
          {
            channel: this.#channel,
            text: delta,
            ...(this.#thread !== undefined ? { thread_ts: this.#thread } : {}),
          },
          signal,
        ),
      );
      this.#ts = posted.ts;
      this.#text = delta;
      return;
    }
    const text = this.#text + delta;
    await client.chat.update(withSignal({ channel: this.#channel, ts: this.#ts, text }, signal));
    this.#text = text;
  }

  #posted(): PostedMessage {
    return {
      channel: this.#channel,
      id: this.#ts ?? '',
      ...(this.#thread !== undefined ? { thread: this.#thread } : {}),
    };
  }

  /**
   * A rate-limit answer becomes `StreamRateLimitedError` with the wait still owed: Slack's
   * `Retry-After`, or 0 when the `WebClient` already waited it out before giving up (the
   * scheduler then keeps only its minimum interval, instead of waiting the same 429 twice).
   */
  async #rateLimited<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const retryAfterMs = slackRetryAfterMs(error);
      if (retryAfterMs !== undefined) {
        throw new StreamRateLimitedError(waitedByClient(error) ? 0 : retryAfterMs, {
          cause: error,
        });
      }
      throw error;
    }
  }
}
