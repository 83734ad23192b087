import type { REST } from '@discordjs/rest';
import type { HistoryMessage, PostedMessage, RtEvent } from '@rt/core';
import {
  type APIChannel,
  type APIMessage,
  ChannelType,
  MessageFlags,
  Routes,
} from 'discord-api-types/v10';
import { DiscordTargetError } from '../errors.js';
import { interactionOf } from '../normalize/event-data.js';
import { restCall } from './call.js';
import { type DiscordMessage, messageBody } from './message-body.js';
import { readChannel } from './read-history.js';
import type { ReplyStates } from './reply-state.js';

/** Per-call options of outbound calls. */
export interface CallOptions {
  /** Aborts the call (it rejects with `signal.reason`). Handlers pass `ctx.signal`. */
  readonly signal?: AbortSignal;
}

/** Options of an interaction follow-up. */
export interface FollowUpOptions extends CallOptions {
  /** Only the invoking user sees it. Default: the ephemeral decision taken for the interaction. */
  readonly ephemeral?: boolean;
}

/** Options of a new thread. */
export interface ThreadOptions extends CallOptions {
  /** Start the thread from this message; otherwise a public thread without a starter message. */
  readonly messageId?: string;
  /** Minutes of inactivity before Discord archives it: 60, 1440, 4320 or 10080. */
  readonly autoArchiveMinutes?: 60 | 1440 | 4320 | 10080;
}

function posted(message: APIMessage, thread?: string): PostedMessage {
  return {
    channel: message.channel_id,
    id: message.id,
    ...(thread !== undefined ? { thread } : {}),
  };
}

/**
 * Outbound calls through `@discordjs/rest`: interaction follow-ups and `@original` edits with the
 * interaction token (no bot token needed), channel messages, replies, threads, reactions and
 * channel history with the bot token. Every call takes an `AbortSignal`; failures reject with
 * `DiscordCallError`.
 */
export class DiscordOutbound {
  readonly #rest: REST;
  readonly #replies: ReplyStates;
  readonly #historyLimit: number;

  constructor(rest: REST, replies: ReplyStates, historyLimit: number) {
    this.#rest = rest;
    this.#replies = replies;
    this.#historyLimit = historyLimit;
  }

  /**
   * Replies to an event the way its acknowledgement calls for: the first reply to a type 5
   * ("thinking…") replaces that message (`PATCH @original`); later replies, and replies to
   * components (type 6) or to sync answers, are follow-ups, ephemeral as decided for the
   * interaction. Throws `DiscordTargetError` while a sync handler's answer is still pending (return
   * the answer instead) and for events that are no interaction.
   */
  async reply(
    event: RtEvent,
    message: DiscordMessage,
    options: CallOptions = {},
  ): Promise<PostedMessage> {
    const state = this.#replies.get(event);
    const { thread } = event;
    await state?.whenDelivered(options.signal);
    if (state?.ack === 'deferred_message') {
      state.ack = 'answered';
      try {
        return posted(await this.editOriginal(event, message, options), thread);
      } catch (error) {
        state.ack = 'deferred_message';
        throw error;
      }
    }
    return posted(
      await this.followUp(event, message, { ...options, ephemeral: state?.ephemeral ?? false }),
      thread,
    );
  }

  /**
   * Sends a follow-up message for an interaction (valid for 15 minutes after it arrived). For an
   * interaction this adapter answered, it waits until the answer was handed over first.
   */
  async followUp(
    event: RtEvent,
    message: DiscordMessage,
    options: FollowUpOptions = {},
  ): Promise<APIMessage> {
    const interaction = interactionOf(event);
    await this.#replies.get(event)?.whenDelivered(options.signal);
    const ephemeral = options.ephemeral ?? this.#replies.get(event)?.ephemeral ?? false;
    const body = messageBody(message);
    if (ephemeral) body.flags = (Number(body.flags) || 0) | MessageFlags.Ephemeral;
    return restCall<APIMessage>(
      this.#rest,
      {
        method: 'post',
        route: Routes.webhook(interaction.application_id, interaction.token),
        data: { body, auth: false },
      },
      options.signal,
    );
  }

  /**
   * Edits the interaction's original response (the "thinking…" message after a type 5), once the
   * answer was handed over.
   */
  async editOriginal(
    event: RtEvent,
    message: DiscordMessage,
    options: CallOptions = {},
  ): Promise<APIMessage> {
    const interaction = interactionOf(event);
    await this.#replies.get(event)?.whenDelivered(options.signal);
    return restCall<APIMessage>(
      this.#rest,
      {
        method: 'patch',
        route: Routes.webhookMessage(interaction.application_id, interaction.token, '@original'),
        data: { body: messageBody(message), auth: false },
      },
      options.signal,
    );
  }

  /** Deletes the interaction's original response. */
  async deleteOriginal(event: RtEvent, options: CallOptions = {}): Promise<void> {
    const interaction = interactionOf(event);
    await this.#replies.get(event)?.whenDelivered(options.signal);
    await restCall(
      this.#rest,
      {
        method: 'delete',
        route: Routes.webhookMessage(interaction.application_id, interaction.token, '@original'),
        data: { auth: false },
      },
      options.signal,
    );
  }

  /** Posts a message in a channel (a thread is a channel) with the bot token. */
  async send(
    channel: string,
    message: DiscordMessage,
    options: CallOptions = {},
  ): Promise<PostedMessage> {
    const created = await restCall<APIMessage>(
      this.#rest,
      {
        method: 'post',
        route: Routes.channelMessages(channel),
        data: { body: messageBody(message) },
      },
      options.signal,
    );
    return posted(created);
  }

  /** Posts a reply to a message (a `message_reference`, shown as a reply; not a thread). */
  async replyTo(
    channel: string,
    messageId: string,
    message: DiscordMessage,
    options: CallOptions = {},
  ): Promise<PostedMessage> {
    const body = {
      ...messageBody(message),
      message_reference: { message_id: messageId, fail_if_not_exists: false },
    };
    const created = await restCall<APIMessage>(
      this.#rest,
      { method: 'post', route: Routes.channelMessages(channel), data: { body } },
      options.signal,
    );
    return posted(created);
  }

  /** Starts a thread in `channel` (from `messageId` when given); resolves the thread's channel id. */
  async startThread(channel: string, name: string, options: ThreadOptions = {}): Promise<string> {
    const body: Record<string, unknown> = { name };
    if (options.autoArchiveMinutes !== undefined)
      body.auto_archive_duration = options.autoArchiveMinutes;
    if (options.messageId === undefined) body.type = ChannelType.PublicThread;
    const created = await restCall<APIChannel>(
      this.#rest,
      { method: 'post', route: Routes.threads(channel, options.messageId), data: { body } },
      options.signal,
    );
    return created.id;
  }

  /** Adds the bot's reaction (`👍`, or `name:id` for a custom emoji) to a message. */
  async react(
    channel: string,
    messageId: string,
    emoji: string,
    options: CallOptions = {},
  ): Promise<void> {
    await restCall(
      this.#rest,
      {
        method: 'put',
        route: Routes.channelMessageOwnReaction(channel, messageId, encodeURIComponent(emoji)),
      },
      options.signal,
    );
  }

  /**
   * The latest messages of the event's conversation (its thread when it has one, else its channel),
   * oldest first, read from Discord (never stored). `limit` defaults to `historyLimit`.
   */
  readHistory(
    event: RtEvent,
    options: { limit?: number; signal?: AbortSignal } = {},
  ): Promise<HistoryMessage[]> {
    const channel = event.thread ?? event.channel;
    if (channel === undefined) {
      return Promise.reject(new DiscordTargetError(`event ${event.id} has no channel to read`));
    }
    const limit = options.limit ?? this.#historyLimit;
    if (!Number.isInteger(limit) || limit <= 0) {
      return Promise.reject(
        new RangeError(`limit must be a positive integer, got ${String(limit)}`),
      );
    }
    return readChannel(this.#rest, channel, limit, options.signal);
  }
}
