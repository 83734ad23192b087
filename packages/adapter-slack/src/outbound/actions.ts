import type { Form, FormErrors, OutboundMessage, PostedMessage, RtEvent } from '@rt/core';
import { UnsupportedActionError } from '@rt/core';
import {
  type ActionCallOptions,
  type ConversationActions,
  type EphemeralTarget,
  emojiName,
  type Message,
  type PostTarget,
} from '@rt/core/adapter';
import type { WebClient } from '@slack/web-api';
import { renderSlackForm, renderSlackMessage, type SlackPayload } from '../render/block-kit.js';
import { responseUrlOf } from '../respond/refusal.js';
import { messageRefOf, type SlackMessageRef, triggerIdOf } from './event-refs.js';
import type { SlackOutbound } from './slack-outbound.js';

/** Slack's `trigger_id` is valid for 3 s after the interaction. */
export const TRIGGER_WINDOW_MS = 3000;

/** Shapes whose `response_url` carries an ephemeral answer to the invoking user. */
const RESPONDS_VIA_URL = new Set(['slash_command', 'block_actions', 'message_action']);

function outbound(payload: SlackPayload): OutboundMessage {
  const { text, ...extra } = payload;
  return { text, extra };
}

type Args = Parameters<WebClient['chat']['delete']>[0];

/** The assistant thread an event is in (its channel and thread ts), if any. */
function assistantThreadOf(event: RtEvent): { channel: string; thread: string } | undefined {
  const inner = (event.payload as { event?: Record<string, unknown> } | undefined)?.event;
  const started = inner?.assistant_thread as
    | { channel_id?: unknown; thread_ts?: unknown }
    | undefined;
  if (typeof started?.channel_id === 'string' && typeof started.thread_ts === 'string') {
    return { channel: started.channel_id, thread: started.thread_ts };
  }
  if (
    inner?.channel_type === 'im' &&
    event.channel !== undefined &&
    typeof inner.thread_ts === 'string'
  ) {
    return { channel: event.channel, thread: inner.thread_ts };
  }
  return undefined;
}

/**
 * The conversation actions on Slack (docs/messages.md, capability table): every message is
 * rendered to Block Kit first (limits checked, nothing sent on a `MessageLimitError`), then sent
 * through the adapter's `SlackOutbound` (the installation's token, the `WebClient` retry policy
 * and rate-limit handling, the call's signal). `typing` needs an assistant thread, `openForm` a
 * `trigger_id` less than 3 s old, `showFormErrors` a sync `view_submission`: otherwise
 * `UnsupportedActionError` before any call.
 */
export class SlackActions implements ConversationActions {
  readonly #adapter: string;
  readonly #outbound: SlackOutbound;

  constructor(adapter: string, slackOutbound: SlackOutbound) {
    this.#adapter = adapter;
    this.#outbound = slackOutbound;
  }

  #unsupported(action: UnsupportedActionError['action'], reason: string): never {
    throw new UnsupportedActionError(action, this.#adapter, reason);
  }

  async reply(
    event: RtEvent,
    message: Message,
    options: ActionCallOptions,
  ): Promise<PostedMessage> {
    return this.#outbound.reply(event, outbound(renderSlackMessage(message)), options);
  }

  async post(
    event: RtEvent,
    message: Message,
    options: ActionCallOptions & PostTarget,
  ): Promise<PostedMessage> {
    const payload = outbound(renderSlackMessage(message));
    return this.#outbound.post(event, payload, {
      ...(options.channel !== undefined ? { channel: options.channel } : {}),
      ...(options.thread !== undefined ? { threadTs: options.thread } : {}),
      signal: options.signal,
    });
  }

  async edit(
    event: RtEvent,
    posted: PostedMessage,
    message: Message,
    options: ActionCallOptions,
  ): Promise<PostedMessage> {
    const payload = outbound(renderSlackMessage(message));
    await this.#outbound.update(
      event,
      { channel: posted.channel, ts: posted.id },
      payload,
      options,
    );
    return posted;
  }

  async delete(event: RtEvent, posted: PostedMessage, options: ActionCallOptions): Promise<void> {
    await this.#outbound.api(event, options.signal, (client, args) =>
      client.chat.delete(args({ channel: posted.channel, ts: posted.id }) as Args),
    );
  }

  #reaction(
    action: 'react' | 'unreact',
    event: RtEvent,
    emoji: string,
    target: PostedMessage | undefined,
  ): { name: string; ref: SlackMessageRef } {
    const name = emojiName(emoji);
    if (name === undefined) {
      throw new TypeError(`no Slack name is known for emoji "${emoji}": pass its :name:`);
    }
    const ref =
      target !== undefined ? { channel: target.channel, ts: target.id } : messageRefOf(event);
    if (ref === undefined)
      this.#unsupported(action, `event ${event.shape} is about no message: pass a target`);
    return { name, ref };
  }

  async react(
    event: RtEvent,
    emoji: string,
    target: PostedMessage | undefined,
    options: ActionCallOptions,
  ): Promise<void> {
    const { name, ref } = this.#reaction('react', event, emoji, target);
    await this.#outbound.api(event, options.signal, (client, args) =>
      client.reactions.add(args({ channel: ref.channel, timestamp: ref.ts, name })),
    );
  }

  async unreact(
    event: RtEvent,
    emoji: string,
    target: PostedMessage | undefined,
    options: ActionCallOptions,
  ): Promise<void> {
    const { name, ref } = this.#reaction('unreact', event, emoji, target);
    await this.#outbound.api(event, options.signal, (client, args) =>
      client.reactions.remove(args({ channel: ref.channel, timestamp: ref.ts, name })),
    );
  }

  /**
   * To the invoking user of a slash command or an interaction on a message: its `response_url`
   * (works where the bot is not a member). Otherwise, or for another `user`: `chat.postEphemeral`
   * in the event's channel (and thread).
   */
  async ephemeral(
    event: RtEvent,
    message: Message,
    options: ActionCallOptions & EphemeralTarget,
  ): Promise<void> {
    const payload = outbound(renderSlackMessage(message));
    const url = responseUrlOf(event.payload as Record<string, unknown>);
    const toInvoker = options.user === undefined || options.user === event.user;
    if (toInvoker && url !== undefined && RESPONDS_VIA_URL.has(event.shape)) {
      await this.#outbound.respond(event, payload, { signal: options.signal });
      return;
    }
    if (event.channel === undefined)
      this.#unsupported('ephemeral', `event ${event.shape} has no channel`);
    const user = options.user ?? event.user;
    if (user === undefined) this.#unsupported('ephemeral', `event ${event.shape} names no user`);
    await this.#outbound.postEphemeral(event, payload, { user, signal: options.signal });
  }

  /** Slack shows "is typing…" only in an assistant thread (`assistant.threads.setStatus`). */
  async typing(event: RtEvent, options: ActionCallOptions): Promise<void> {
    const thread = assistantThreadOf(event);
    if (thread === undefined) {
      this.#unsupported('typing', 'Slack shows a typing status only in assistant threads');
    }
    await this.#outbound.api(event, options.signal, (client, args) =>
      client.assistant.threads.setStatus(
        args({ channel_id: thread.channel, thread_ts: thread.thread, status: 'is typing…' }),
      ),
    );
  }

  /** `views.open` with the event's `trigger_id`, only within its 3 s. */
  async openForm(event: RtEvent, form: Form, options: ActionCallOptions): Promise<void> {
    const view = renderSlackForm(form);
    if (triggerIdOf(event) === undefined) {
      this.#unsupported(
        'openForm',
        `event ${event.shape} has no trigger_id (forms open from commands, shortcuts and buttons)`,
      );
    }
    if (Date.now() - event.receivedAt > TRIGGER_WINDOW_MS) {
      this.#unsupported('openForm', 'the trigger_id expired (valid 3 s after the interaction)');
    }
    await this.#outbound.openView(event, view as never, options);
  }

  /** `conversations.open` with the user, then a post in that DM. */
  async dm(
    event: RtEvent,
    user: string,
    message: Message,
    options: ActionCallOptions,
  ): Promise<PostedMessage> {
    const payload = outbound(renderSlackMessage(message));
    const opened = await this.#outbound.api(event, options.signal, (client, args) =>
      client.conversations.open(args({ users: user })),
    );
    const channel = opened.channel?.id;
    if (channel === undefined) this.#unsupported('dm', `Slack opened no conversation with ${user}`);
    return this.#outbound.post(event, payload, { channel, signal: options.signal });
  }

  /** Slack shows form errors only in the answer of a sync `view_submission` (the default mode). */
  async showFormErrors(
    _event: RtEvent,
    _errors: FormErrors,
    _options: ActionCallOptions,
  ): Promise<void> {
    this.#unsupported(
      'showFormErrors',
      'Slack shows form errors only as the answer of a sync view_submission (the default mode)',
    );
  }
}
