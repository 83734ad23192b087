import type { REST } from '@discordjs/rest';
import type { Form, FormErrors, PostedMessage, RtEvent } from '@rt/core';
import { UnsupportedActionError } from '@rt/core';
import {
  type ActionCallOptions,
  type ConversationActions,
  type EphemeralTarget,
  emojiCharacter,
  type Message,
  type PostTarget,
} from '@rt/core/adapter';
import { type APIChannel, InteractionResponseType, Routes } from 'discord-api-types/v10';
import { interactionOf } from '../normalize/event-data.js';
import { messageTargetOf } from '../normalize/message-target.js';
import {
  type DiscordBody,
  discordFormErrors,
  renderDiscordForm,
  renderDiscordMessage,
} from '../render/components.js';
import { restCall } from './call.js';
import type { DiscordOutbound } from './discord-outbound.js';
import type { ReplyStates } from './reply-state.js';

/** Discord's window for the first answer to an interaction (a modal must be that answer). */
export const INTERACTION_WINDOW_MS = 3000;

/** Discord keeps an interaction token usable for 15 minutes. */
const TOKEN_LIFETIME_MS = 15 * 60_000;

type Action = UnsupportedActionError['action'];

function isInteraction(event: RtEvent): boolean {
  const payload = event.payload as { token?: unknown; application_id?: unknown } | undefined;
  return typeof payload?.token === 'string' && typeof payload.application_id === 'string';
}

/**
 * The conversation actions on Discord (docs/messages.md, capability table): every message is
 * rendered first (Components V2 for cards, long text split at paragraph boundaries; limits
 * checked, nothing sent on a `MessageLimitError`), then sent through the adapter's REST client
 * (bounded retries, rate-limit waits, the call's signal). Interactions answer with their token
 * (`@original` after a type 5, follow-ups after), gateway messages with a `message_reference`.
 * `ephemeral` needs an interaction, `openForm` a sync dispatch of a command or component inside
 * Discord's 3 s: otherwise `UnsupportedActionError` before any call.
 */
export class DiscordActions implements ConversationActions {
  readonly #adapter: string;
  readonly #rest: REST;
  readonly #outbound: DiscordOutbound;
  readonly #replies: ReplyStates;
  /** Messages sent with an interaction's token: edited and deleted with that token. */
  readonly #byToken = new WeakMap<PostedMessage, RtEvent>();

  constructor(adapter: string, rest: REST, outbound: DiscordOutbound, replies: ReplyStates) {
    this.#adapter = adapter;
    this.#rest = rest;
    this.#outbound = outbound;
    this.#replies = replies;
  }

  #unsupported(action: Action, reason: string): never {
    throw new UnsupportedActionError(action, this.#adapter, reason);
  }

  #viaToken(event: RtEvent, posted: PostedMessage): PostedMessage {
    this.#byToken.set(posted, event);
    return posted;
  }

  async reply(
    event: RtEvent,
    message: Message,
    options: ActionCallOptions,
  ): Promise<PostedMessage> {
    const [first, ...rest] = renderDiscordMessage(message);
    const target = messageTargetOf(event);
    let posted: PostedMessage;
    if (target !== undefined) {
      posted = await this.#outbound.replyTo(target.channel, target.messageId, first ?? {}, options);
      for (const part of rest) await this.#outbound.send(target.channel, part, options);
      return posted;
    }
    posted = this.#viaToken(event, await this.#outbound.reply(event, first ?? {}, options));
    for (const part of rest) await this.#outbound.followUp(event, part, options);
    return posted;
  }

  async post(
    event: RtEvent,
    message: Message,
    options: ActionCallOptions & PostTarget,
  ): Promise<PostedMessage> {
    const bodies = renderDiscordMessage(message);
    // A thread is a channel on Discord.
    const channel = options.thread ?? options.channel ?? event.channel;
    if (channel === undefined) this.#unsupported('post', `event ${event.shape} has no channel`);
    let first: PostedMessage | undefined;
    for (const body of bodies) {
      const sent = await this.#outbound.send(channel, body, options);
      first ??= sent;
    }
    return first as PostedMessage;
  }

  #messageRoute(posted: PostedMessage): `/${string}` {
    const event = this.#byToken.get(posted);
    if (event !== undefined && Date.now() - event.receivedAt < TOKEN_LIFETIME_MS) {
      const { application_id, token } = interactionOf(event);
      return Routes.webhookMessage(application_id, token, posted.id);
    }
    return Routes.channelMessage(posted.channel, posted.id);
  }

  async edit(
    _event: RtEvent,
    posted: PostedMessage,
    message: Message,
    options: ActionCallOptions,
  ): Promise<PostedMessage> {
    const [body, ...rest] = renderDiscordMessage(message);
    if (rest.length > 0) {
      this.#unsupported(
        'edit',
        'the new text is longer than one Discord message (2000 characters)',
      );
    }
    const route = this.#messageRoute(posted);
    await restCall(
      this.#rest,
      { method: 'patch', route, data: { body, auth: !route.startsWith('/webhooks/') } },
      options.signal,
    );
    return posted;
  }

  async delete(_event: RtEvent, posted: PostedMessage, options: ActionCallOptions): Promise<void> {
    const route = this.#messageRoute(posted);
    await restCall(
      this.#rest,
      { method: 'delete', route, data: { auth: !route.startsWith('/webhooks/') } },
      options.signal,
    );
  }

  #reaction(
    action: 'react' | 'unreact',
    event: RtEvent,
    emoji: string,
    target: PostedMessage | undefined,
  ): `/${string}` {
    const character = emojiCharacter(emoji);
    if (character === undefined) {
      throw new TypeError(
        `no Discord emoji is known for "${emoji}": pass the character or name:id`,
      );
    }
    const gateway = messageTargetOf(event);
    const ref =
      target ??
      (gateway !== undefined ? { channel: gateway.channel, id: gateway.messageId } : event.message);
    if (ref === undefined) {
      this.#unsupported(action, `event ${event.shape} is about no message: pass a target`);
    }
    return Routes.channelMessageOwnReaction(ref.channel, ref.id, encodeURIComponent(character));
  }

  async react(
    event: RtEvent,
    emoji: string,
    target: PostedMessage | undefined,
    options: ActionCallOptions,
  ): Promise<void> {
    const route = this.#reaction('react', event, emoji, target);
    await restCall(this.#rest, { method: 'put', route }, options.signal);
  }

  async unreact(
    event: RtEvent,
    emoji: string,
    target: PostedMessage | undefined,
    options: ActionCallOptions,
  ): Promise<void> {
    const route = this.#reaction('unreact', event, emoji, target);
    await restCall(this.#rest, { method: 'delete', route }, options.signal);
  }

  /**
   * A flags-64 message to the interaction's user: the `@original` edit when the interaction was
   * deferred ephemerally, an ephemeral follow-up otherwise. Only an interaction has one.
   */
  async ephemeral(
    event: RtEvent,
    message: Message,
    options: ActionCallOptions & EphemeralTarget,
  ): Promise<void> {
    const bodies = renderDiscordMessage(message);
    if (!isInteraction(event)) {
      this.#unsupported(
        'ephemeral',
        'Discord shows ephemeral messages only in answer to an interaction',
      );
    }
    if (options.user !== undefined && options.user !== event.user) {
      this.#unsupported(
        'ephemeral',
        'a Discord ephemeral message reaches only the interaction’s user',
      );
    }
    const state = this.#replies.get(event);
    for (const [i, body] of bodies.entries()) {
      if (i === 0 && state?.ack === 'deferred_message' && state.ephemeral) {
        await this.#outbound.reply(event, body, options);
      } else {
        await this.#outbound.followUp(event, body, { signal: options.signal, ephemeral: true });
      }
    }
  }

  /** `POST /channels/{id}/typing` on the event's thread or channel (shown for about 10 s). */
  async typing(event: RtEvent, options: ActionCallOptions): Promise<void> {
    const channel = event.thread ?? messageTargetOf(event)?.channel ?? event.channel;
    if (channel === undefined) this.#unsupported('typing', `event ${event.shape} has no channel`);
    await restCall(
      this.#rest,
      { method: 'post', route: Routes.channelTyping(channel) },
      options.signal,
    );
  }

  /**
   * A modal is only ever the first answer to a command or component interaction: inside a sync
   * dispatch (`syncCommands`, `dispatchModes`) the form becomes that answer (type 9) and this
   * resolves once it is queued; anywhere else `UnsupportedActionError`.
   */
  async openForm(event: RtEvent, form: Form, _options: ActionCallOptions): Promise<void> {
    const data = renderDiscordForm(form);
    if (event.shape !== 'application_command' && event.shape !== 'message_component') {
      this.#unsupported('openForm', 'Discord opens a modal only from a command or a component');
    }
    const state = this.#replies.get(event);
    if (state === undefined || !state.sync || state.ack !== 'pending') {
      this.#unsupported(
        'openForm',
        'the interaction was already answered: dispatch this command or component sync to open a form',
      );
    }
    if (Date.now() - event.receivedAt > INTERACTION_WINDOW_MS) {
      this.#unsupported('openForm', 'Discord’s 3 s to answer the interaction are up');
    }
    state.form = { type: InteractionResponseType.Modal, data };
  }

  /** `POST /users/@me/channels` with the user, then a message there. */
  async dm(
    _event: RtEvent,
    user: string,
    message: Message,
    options: ActionCallOptions,
  ): Promise<PostedMessage> {
    const bodies = renderDiscordMessage(message);
    const channel = await restCall<APIChannel>(
      this.#rest,
      { method: 'post', route: Routes.userChannels(), data: { body: { recipient_id: user } } },
      options.signal,
    );
    let first: PostedMessage | undefined;
    for (const body of bodies) first ??= await this.#outbound.send(channel.id, body, options);
    return first as PostedMessage;
  }

  /**
   * The errors, ephemeral (a Discord modal cannot stay open): replacing a private "thinking…"
   * message, else as an ephemeral follow-up, deleting a public "thinking…" left unanswered.
   */
  async showFormErrors(
    event: RtEvent,
    errors: FormErrors,
    options: ActionCallOptions,
  ): Promise<void> {
    if (!isInteraction(event)) {
      this.#unsupported('showFormErrors', 'form errors answer a modal submit interaction');
    }
    const body: DiscordBody = discordFormErrors(errors);
    const state = this.#replies.get(event);
    if (state?.ack === 'deferred_message' && state.ephemeral) {
      // The "thinking…" message is already private: the errors replace it.
      await this.#outbound.reply(event, body, options);
      return;
    }
    await this.#outbound.followUp(event, body, { signal: options.signal, ephemeral: true });
    if (state?.ack === 'deferred_message') {
      // A public "thinking…" nobody will answer: remove it, the errors were the answer.
      state.ack = 'answered';
      await this.#outbound.deleteOriginal(event, options);
    }
  }
}
