import type { REST } from '@discordjs/rest';
import type { PostedMessage, RtEvent } from '@rt/core';
import {
  checkPositiveInteger,
  type StreamEnd,
  StreamRateLimitedError,
  type StreamWriter,
  type StreamWriterLimits,
} from '@rt/core/adapter';
import { Routes } from 'discord-api-types/v10';
import { DiscordTargetError } from '../errors.js';
import { messageTargetOf } from '../normalize/message-target.js';
import { restCall } from './call.js';
import type { DiscordOutbound } from './discord-outbound.js';

/**
 * How the Discord adapter streams replies (`ctx.stream`): the reply is posted, then edited, one
 * call per `editIntervalMs` at most (Discord allows about 5 message writes per 5 s in a channel;
 * its 429s are waited out by `@discordjs/rest`, or, past `restOptions.rejectOnRateLimit`, by the
 * stream scheduler); past 2000 characters it continues in a new message.
 */
export interface DiscordStreamOptions {
  /**
   * Least ms between two writes (post or edit) of one stream. Default 1200: inside Discord's
   * usual 5 message writes per 5 s in a channel, with room for network jitter.
   */
  readonly editIntervalMs?: number;
  /**
   * Ms between typing indicators until the first text, for gateway messages (Discord shows one
   * for about 10 s). Interactions show "thinking…" from their type 5 answer instead. Default 8000.
   */
  readonly typingRenewMs?: number;
  /** Show typing until the first text. Default true. */
  readonly typing?: boolean;
}

/** Defaults of `DiscordStreamOptions`. */
export const DEFAULT_DISCORD_STREAM_OPTIONS: Readonly<Required<DiscordStreamOptions>> =
  Object.freeze({ editIntervalMs: 1200, typingRenewMs: 8000, typing: true });

/** Discord's content limit of one message. */
const MESSAGE_MAX_CHARS = 2000;

/** `options` over the defaults, validated (`TypeError`/`RangeError` naming the option). */
export function resolveDiscordStreamOptions(
  options: DiscordStreamOptions = {},
): Readonly<Required<DiscordStreamOptions>> {
  const resolved = { ...DEFAULT_DISCORD_STREAM_OPTIONS };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) (resolved as Record<string, unknown>)[key] = value;
  }
  checkPositiveInteger('stream.editIntervalMs', resolved.editIntervalMs);
  checkPositiveInteger('stream.typingRenewMs', resolved.typingRenewMs);
  if (typeof resolved.typing !== 'boolean') throw new TypeError('stream.typing must be a boolean');
  return Object.freeze(resolved);
}

/** Ms to wait when `error` is a rate limit `@discordjs/rest` rejected with, else `undefined`. */
export function discordRetryAfterMs(error: unknown): number | undefined {
  for (let current = error, depth = 0; current && depth < 3; depth += 1) {
    const { name, retryAfter, status, cause } = current as {
      name?: unknown;
      retryAfter?: unknown;
      status?: unknown;
      cause?: unknown;
    };
    if (name === 'RateLimitError' && typeof retryAfter === 'number') return retryAfter;
    if (status === 429) return 1000;
    current = cause;
  }
  return undefined;
}

interface Interaction {
  readonly application_id: string;
  readonly token: string;
}

function interactionOf(event: RtEvent): Interaction | undefined {
  const payload = event.payload as Partial<Interaction> | undefined;
  return typeof payload?.token === 'string' && typeof payload.application_id === 'string'
    ? (payload as Interaction)
    : undefined;
}

/**
 * The Discord `StreamWriter` of one streamed reply to `event`, on the adapter's bounded outbound.
 * Path `discord-edit`. The first text is posted as the adapter's `reply` would (for an interaction
 * answered with type 5 it replaces the "thinking…" `@original`, else a follow-up; for a gateway
 * message a reply to it); each later write edits the current message (`PATCH` of the webhook
 * message or the channel message); once a message holds 2000 characters the next write posts a
 * follow-up (interaction) or a channel message. Until then, gateway messages show typing.
 */
export class DiscordStreamWriter implements StreamWriter {
  readonly path = 'discord-edit';
  readonly limits: StreamWriterLimits;
  readonly #outbound: DiscordOutbound;
  readonly #rest: REST;
  readonly #event: RtEvent;
  readonly #options: Readonly<Required<DiscordStreamOptions>>;
  readonly #interaction: Interaction | undefined;
  readonly #channel: string | undefined;
  #current: PostedMessage | undefined;
  #text = '';

  constructor(
    outbound: DiscordOutbound,
    rest: REST,
    event: RtEvent,
    options: Readonly<Required<DiscordStreamOptions>>,
  ) {
    this.#outbound = outbound;
    this.#rest = rest;
    this.#event = event;
    this.#options = options;
    this.#interaction = interactionOf(event);
    this.#channel = messageTargetOf(event)?.channel ?? event.thread ?? event.channel;
    if (this.#interaction === undefined && this.#channel === undefined) {
      throw new DiscordTargetError(`event ${event.id} has nowhere to stream a reply`);
    }
    this.limits = {
      minIntervalMs: options.editIntervalMs,
      maxCharsPerWrite: MESSAGE_MAX_CHARS,
      ...(this.#interaction === undefined ? { waitingRenewMs: options.typingRenewMs } : {}),
    };
  }

  room(): number {
    const left = MESSAGE_MAX_CHARS - this.#text.length;
    return this.#current === undefined || left <= 0 ? MESSAGE_MAX_CHARS : left;
  }

  async waiting(signal: AbortSignal): Promise<void> {
    if (!this.#options.typing || this.#interaction !== undefined || this.#channel === undefined) {
      return;
    }
    await restCall(
      this.#rest,
      { method: 'post', route: Routes.channelTyping(this.#channel) },
      signal,
    );
  }

  write(delta: string, signal: AbortSignal): Promise<PostedMessage> {
    return this.#rateLimited(() => this.#add(delta, signal));
  }

  finish(delta: string, end: StreamEnd, signal: AbortSignal): Promise<PostedMessage> {
    const tail = end.kind === 'completed' ? delta : delta + end.marker;
    if (tail.length === 0 && this.#current !== undefined) return Promise.resolve(this.#current);
    return this.#rateLimited(() => this.#add(tail, signal));
  }

  /** One platform call: the first post, an edit, or a continuation message. */
  async #add(delta: string, signal: AbortSignal): Promise<PostedMessage> {
    const current = this.#current;
    if (current === undefined) {
      this.#current = await this.#first(delta, signal);
      this.#text = delta;
      return this.#current;
    }
    if (this.#text.length + delta.length > MESSAGE_MAX_CHARS) {
      this.#current = await this.#continue(delta, signal);
      this.#text = delta;
      return this.#current;
    }
    const text = this.#text + delta;
    await restCall(
      this.#rest,
      {
        method: 'patch',
        route:
          this.#interaction === undefined
            ? Routes.channelMessage(current.channel, current.id)
            : Routes.webhookMessage(
                this.#interaction.application_id,
                this.#interaction.token,
                current.id,
              ),
        data: { body: { content: text }, ...(this.#interaction ? { auth: false } : {}) },
      },
      signal,
    );
    this.#text = text;
    return current;
  }

  /** The first message: as the adapter's `reply` posts it. */
  #first(delta: string, signal: AbortSignal): Promise<PostedMessage> {
    if (this.#interaction !== undefined) {
      return this.#outbound.reply(this.#event, { text: delta }, { signal });
    }
    const target = messageTargetOf(this.#event);
    if (target !== undefined) {
      return this.#outbound.replyTo(target.channel, target.messageId, { text: delta }, { signal });
    }
    return this.#outbound.send(this.#channel as string, { text: delta }, { signal });
  }

  /** A new message for the text past the current one's 2000 characters. */
  async #continue(delta: string, signal: AbortSignal): Promise<PostedMessage> {
    if (this.#interaction !== undefined) {
      const created = await this.#outbound.followUp(this.#event, { text: delta }, { signal });
      return {
        channel: created.channel_id,
        id: created.id,
        ...(this.#event.thread !== undefined ? { thread: this.#event.thread } : {}),
      };
    }
    return this.#outbound.send(this.#channel as string, { text: delta }, { signal });
  }

  async #rateLimited<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const retryAfterMs = discordRetryAfterMs(error);
      if (retryAfterMs !== undefined)
        throw new StreamRateLimitedError(retryAfterMs, { cause: error });
      throw error;
    }
  }
}
