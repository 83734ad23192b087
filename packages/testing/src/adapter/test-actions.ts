import type { Form, FormErrors, PostedMessage, RtEvent } from '@rt/core';
import {
  type ActionCallOptions,
  type ConversationActions,
  cardFallback,
  isCard,
  type Message,
} from '@rt/core/adapter';
import type { PostedByBot } from './test-adapter.js';

/** One conversation action a handler took through the test adapter. */
export interface ActedByBot {
  readonly action: keyof ConversationActions;
  readonly event: RtEvent;
  /** The message (reply, post, edit, ephemeral, dm), if the action had one. */
  readonly message?: Message;
  /** The emoji of `react` / `unreact`. */
  readonly emoji?: string;
  /** The message acted on (`edit`, `delete`, `react` with a target). */
  readonly target?: PostedMessage;
  /** `post`'s channel and thread, `ephemeral`'s and `dm`'s user. */
  readonly channel?: string;
  readonly thread?: string;
  readonly user?: string;
  readonly form?: Form;
  readonly errors?: FormErrors;
}

/** What a neutral message records as `PostedByBot.text` / `extra`. */
function textOf(message: Message): { text: string; extra?: Readonly<Record<string, unknown>> } {
  if (typeof message === 'string') return { text: message };
  if (isCard(message)) return { text: cardFallback(message), extra: { card: message } };
  return { text: message.text, ...(message.extra ? { extra: message.extra } : {}) };
}

/**
 * The test adapter's conversation actions: every call is recorded in `acted` (in order), and the
 * ones that post (`reply`, `post`, `dm`) land in `posted` too (a card as its fallback text, the
 * card itself in `extra.card`). Nothing is rendered and nothing is refused; each call honours its
 * signal (an aborted one rejects with the reason, recording nothing).
 */
export function testActions(posted: PostedByBot[], acted: ActedByBot[]): ConversationActions {
  const post = (event: RtEvent, message: Message, channel: string, thread?: string) => {
    posted.push({ channel, thread, ...textOf(message), inReplyTo: event });
    return { channel, id: `posted-${posted.length}`, ...(thread !== undefined ? { thread } : {}) };
  };
  const record = (options: ActionCallOptions, entry: ActedByBot) => {
    options.signal.throwIfAborted();
    acted.push(entry);
  };
  return {
    async reply(event, message, options) {
      record(options, { action: 'reply', event, message });
      return post(event, message, event.channel ?? 'C-test', event.thread);
    },
    async post(event, message, options) {
      const channel = options.channel ?? event.channel ?? 'C-test';
      record(options, {
        action: 'post',
        event,
        message,
        channel,
        ...(options.thread ? { thread: options.thread } : {}),
      });
      return post(event, message, channel, options.thread);
    },
    async edit(event, target, message, options) {
      record(options, { action: 'edit', event, message, target });
      return target;
    },
    async delete(event, target, options) {
      record(options, { action: 'delete', event, target });
    },
    async react(event, emoji, target, options) {
      record(options, { action: 'react', event, emoji, ...(target ? { target } : {}) });
    },
    async unreact(event, emoji, target, options) {
      record(options, { action: 'unreact', event, emoji, ...(target ? { target } : {}) });
    },
    async ephemeral(event, message, options) {
      const user = options.user ?? event.user;
      record(options, { action: 'ephemeral', event, message, ...(user ? { user } : {}) });
    },
    async typing(event, options) {
      record(options, { action: 'typing', event });
    },
    async openForm(event, form, options) {
      record(options, { action: 'openForm', event, form });
    },
    async dm(event, user, message, options) {
      record(options, { action: 'dm', event, message, user });
      return post(event, message, `D-${user}`);
    },
    async showFormErrors(event, errors, options) {
      record(options, { action: 'showFormErrors', event, errors });
    },
  };
}
