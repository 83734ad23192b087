import type { PostedMessage } from '../adapter/adapter.js';
import type { ConversationActionName } from '../errors.js';
import type { RtEvent } from '../event/event.js';
import type { Form, FormErrors } from './form.js';
import type { Message } from './message.js';

/** Every action call carries the signal that cancels it (the handler's, unless overridden). */
export interface ActionCallOptions {
  /** At the abort the call rejects with `signal.reason` and its request is cancelled. */
  readonly signal: AbortSignal;
}

/** Where `post` writes: default the event's channel, top level (no thread). */
export interface PostTarget {
  readonly channel?: string;
  /** Thread to post in (Slack a thread ts, Discord a thread channel id). */
  readonly thread?: string;
}

/** Who sees an ephemeral message: default the event's user. */
export interface EphemeralTarget {
  readonly user?: string;
}

/**
 * The conversation capability an adapter implements (`Adapter.actions`), behind the `ctx` methods.
 * Every method renders the neutral message first (all platform limits checked: a
 * `MessageLimitError`, nothing sent), then calls the platform through the adapter's bounded
 * outbound (per-attempt timeout, retries, rate-limit waits) with `options.signal`. What the
 * platform or this delivery cannot do rejects with `UnsupportedActionError` before any call.
 * Later capabilities (a stream writer) are added as further optional members, detected at run time.
 */
export interface ConversationActions {
  /** Answers the event in its conversation (its thread when it has one). */
  reply(event: RtEvent, message: Message, options: ActionCallOptions): Promise<PostedMessage>;
  /** Posts in a channel or thread, default the event's channel. */
  post(
    event: RtEvent,
    message: Message,
    options: ActionCallOptions & PostTarget,
  ): Promise<PostedMessage>;
  /** Replaces a message the bot posted. */
  edit(
    event: RtEvent,
    posted: PostedMessage,
    message: Message,
    options: ActionCallOptions,
  ): Promise<PostedMessage>;
  /** Deletes a message the bot posted. */
  delete(event: RtEvent, posted: PostedMessage, options: ActionCallOptions): Promise<void>;
  /** Adds the bot's reaction to `target`, default the message the event is about. */
  react(
    event: RtEvent,
    emoji: string,
    target: PostedMessage | undefined,
    options: ActionCallOptions,
  ): Promise<void>;
  /** Removes the bot's reaction. */
  unreact(
    event: RtEvent,
    emoji: string,
    target: PostedMessage | undefined,
    options: ActionCallOptions,
  ): Promise<void>;
  /** A message only one user sees. */
  ephemeral(
    event: RtEvent,
    message: Message,
    options: ActionCallOptions & EphemeralTarget,
  ): Promise<void>;
  /** Shows that the bot is working on an answer. */
  typing(event: RtEvent, options: ActionCallOptions): Promise<void>;
  /** Opens a form from an interaction, inside the platform's window. */
  openForm(event: RtEvent, form: Form, options: ActionCallOptions): Promise<void>;
  /** Posts in a direct conversation with `user`. */
  dm(
    event: RtEvent,
    user: string,
    message: Message,
    options: ActionCallOptions,
  ): Promise<PostedMessage>;
  /**
   * Shows a deferred form submit's errors (the runtime calls it when an `onFormSubmit` handler of
   * a deferred delivery returned `formErrors(...)`; a sync one's return value is the answer).
   */
  showFormErrors(event: RtEvent, errors: FormErrors, options: ActionCallOptions): Promise<void>;
}

/** The ctx methods, each bound to the handler's signal unless `options.signal` is given. */
export interface ContextActions {
  /**
   * Posts a reply in the event's conversation. A string is markdown-subset text; a card is
   * rendered; `{ text, extra }` passes platform markup through.
   */
  reply(message: Message, options?: { readonly signal?: AbortSignal }): Promise<PostedMessage>;
  /** Posts in the event's channel (or `channel`), in `thread` when given. */
  post(
    message: Message,
    options?: PostTarget & { readonly signal?: AbortSignal },
  ): Promise<PostedMessage>;
  /** Replaces a message the bot posted (what `reply`/`post` resolved). */
  edit(
    posted: PostedMessage,
    message: Message,
    options?: { readonly signal?: AbortSignal },
  ): Promise<PostedMessage>;
  /** Deletes a message the bot posted. */
  delete(posted: PostedMessage, options?: { readonly signal?: AbortSignal }): Promise<void>;
  /** Reacts with `emoji` (`👀` or `:eyes:`) to `target`, default the event's message. */
  react(
    emoji: string,
    target?: PostedMessage,
    options?: { readonly signal?: AbortSignal },
  ): Promise<void>;
  /** Removes the bot's reaction. */
  unreact(
    emoji: string,
    target?: PostedMessage,
    options?: { readonly signal?: AbortSignal },
  ): Promise<void>;
  /** A message only `user` (default: the event's user) sees. */
  ephemeral(
    message: Message,
    options?: EphemeralTarget & { readonly signal?: AbortSignal },
  ): Promise<void>;
  /** Shows a typing indicator. */
  typing(options?: { readonly signal?: AbortSignal }): Promise<void>;
  /** Opens a form (only from an interaction, inside the platform's window). */
  openForm(form: Form, options?: { readonly signal?: AbortSignal }): Promise<void>;
  /** Posts in a direct conversation with `user`. */
  dm(
    user: string,
    message: Message,
    options?: { readonly signal?: AbortSignal },
  ): Promise<PostedMessage>;
}

/** Every action's name, in `ConversationActions` order. */
export const CONVERSATION_ACTIONS: readonly ConversationActionName[] = Object.freeze([
  'reply',
  'post',
  'edit',
  'delete',
  'react',
  'unreact',
  'ephemeral',
  'typing',
  'openForm',
  'dm',
]);
