import type { EventKind } from '@rt/core';
import { SlackRequestError } from '../errors.js';
import type { SlackEventCallback, SlackInnerEvent } from '../parse/payload-types.js';
import { installationOfEventCallback, tenantOf } from './installation.js';
import { messageIdentityOf } from './message-identity.js';
import { type NormalizeContext, type Normalized, textOf } from './normalized.js';
import { threadEndedBy } from './thread-end.js';

function kindOf(type: string): EventKind {
  switch (type) {
    case 'message':
      return 'message';
    case 'app_mention':
      return 'mention';
    case 'reaction_added':
    case 'reaction_removed':
      return 'reaction';
    default:
      return 'raw';
  }
}

/** The bot user of this delivery: the option, else the `user_id` of a bot authorization. */
function botUserOf(body: SlackEventCallback, ctx: NormalizeContext): string | undefined {
  if (ctx.botUserId !== undefined) return ctx.botUserId;
  const auth = body.authorizations?.find((entry) => entry?.is_bot === true);
  return textOf(auth?.user_id);
}

/** Who wrote a message: the fields an inner event, or a message nested in it, carries. */
interface Author {
  readonly user?: unknown;
  readonly bot_id?: unknown;
  readonly app_id?: unknown;
  readonly bot_profile?: { readonly app_id?: unknown } | null;
}

function isOwnAuthor(
  author: Author,
  botUser: string | undefined,
  appId: string | undefined,
  ctx: NormalizeContext,
): boolean {
  if (botUser !== undefined && author.user === botUser) return true;
  if (ctx.botId !== undefined && author.bot_id === ctx.botId) return true;
  if (appId === undefined) return false;
  return author.app_id === appId || author.bot_profile?.app_id === appId;
}

function nested(value: unknown): Author | undefined {
  return typeof value === 'object' && value !== null ? (value as Author) : undefined;
}

/**
 * True when the inner event was produced by this app's own bot, or is a notice about such a
 * message (`message_changed` carries it as `message`, `message_deleted` as `previous_message`):
 * written by the bot user (the option, else the delivery's bot authorization), carrying our
 * `bot_id` (the option), or an `app_id` or `bot_profile.app_id` equal to the envelope's
 * `api_app_id` (covers `bot_message` posts through our token without knowing the bot id).
 */
function isOwnMessage(
  body: SlackEventCallback,
  event: SlackInnerEvent,
  ctx: NormalizeContext,
  botUser: string | undefined,
) {
  const appId = textOf(body.api_app_id);
  // Three checks in a row, no array or closure per delivery.
  if (isOwnAuthor(event, botUser, appId, ctx)) return true;
  const message = nested(event.message);
  if (message !== undefined && isOwnAuthor(message, botUser, appId, ctx)) return true;
  const previous = nested(event.previous_message);
  return previous !== undefined && isOwnAuthor(previous, botUser, appId, ctx);
}

/**
 * Normalises an `event_callback`: `message` → `message`, `app_mention` → `mention`,
 * `reaction_added`/`reaction_removed` → `reaction` (text = the emoji name), anything else → `raw`
 * with `type`. Id: `event_id`; tenant per docs/contract.md §9.1; thread: `thread_ts ?? ts` (reactions: the
 * reacted-to message). A message or mention in an `im` channel (`channel_type: 'im'`) is
 * `direct`. Messages and mentions carry their secondary identity in `aliases`, and
 * the `message` copy of a message mentioning the bot is a `mention` under `'mention-wins'`
 * (`messageIdentityOf`). A top-level message or mention (no `thread_ts`) is its thread's root
 * (`threadRoot`). The bot's own messages and ignored subtypes are acknowledged undispatched. A
 * `message_deleted` of a thread's root (someone else's) ends its thread: the event carries
 * `endsThread` and `thread` = the deleted ts, so the runtime ends that thread's subscription; while
 * the subtype is ignored (the default) it is dispatched anyway, as `raw` type `message_deleted`.
 * Throws `SlackRequestError` when no tenant can be derived.
 */
export function normalizeEventCallback(
  body: SlackEventCallback,
  ctx: NormalizeContext,
): Normalized {
  const inner = body.event;
  const ended = threadEndedBy(inner);
  if (inner.type === 'message' && inner.subtype !== undefined) {
    if (ctx.ignoredMessageSubtypes.has(inner.subtype)) {
      if (ended !== undefined && !isOwnMessage(body, inner, ctx, botUserOf(body, ctx)))
        return threadEnd(body, ctx, ended);
      return { type: 'ignore', reason: `message subtype ${inner.subtype}` };
    }
  }
  // Read once: the own-message check and the message identity both need it.
  const botUser = botUserOf(body, ctx);
  if (isOwnMessage(body, inner, ctx, botUser)) return { type: 'ignore', reason: 'own bot message' };
  const tenant = tenantOf(installationOfEventCallback(body));
  if (tenant === undefined)
    throw new SlackRequestError('event_callback names no team or enterprise');
  const identity = messageIdentityOf(inner, ctx.adapter, tenant, ctx.mentionAndMessage, botUser);
  const kind = identity.kind ?? kindOf(inner.type);
  const isReaction = kind === 'reaction';
  // Assistant thread events name their conversation in `assistant_thread`.
  const assistant = (inner as { assistant_thread?: Record<string, unknown> | null })
    .assistant_thread;
  const channel = isReaction
    ? textOf(inner.item?.channel)
    : (textOf(inner.channel) ?? textOf(assistant?.channel_id));
  const thread = isReaction
    ? textOf(inner.item?.ts)
    : (textOf(inner.thread_ts) ?? textOf(inner.ts) ?? textOf(assistant?.thread_ts));
  // A direct message: one user and the bot, in an `im` channel (not a group DM, `mpim`).
  const direct = (kind === 'message' || kind === 'mention') && inner.channel_type === 'im';
  return {
    type: 'event',
    event: {
      adapter: ctx.adapter,
      tenant,
      id: body.event_id,
      kind,
      shape: 'event_callback',
      type: inner.type,
      channel,
      thread: ended ?? thread,
      ...(ended === undefined ? {} : { endsThread: true }),
      user: textOf(inner.user) ?? textOf(assistant?.user_id),
      ...(direct ? { direct: true } : {}),
      text: isReaction
        ? textOf(inner.reaction)
        : typeof inner.text === 'string'
          ? inner.text
          : undefined,
      retry: ctx.retry,
      ...(!isReaction && textOf(inner.thread_ts) === undefined ? { threadRoot: true } : {}),
      ...(identity.aliases === undefined ? {} : { aliases: identity.aliases }),
      ...(identity.fallbackKind === undefined ? {} : { fallbackKind: identity.fallbackKind }),
      receivedAt: ctx.receivedAt,
      payload: body,
    },
  };
}

/** The event of a deleted thread root: `raw`, type `message_deleted`, `endsThread`. */
function threadEnd(body: SlackEventCallback, ctx: NormalizeContext, thread: string): Normalized {
  const tenant = tenantOf(installationOfEventCallback(body));
  if (tenant === undefined)
    throw new SlackRequestError('event_callback names no team or enterprise');
  return {
    type: 'event',
    event: {
      adapter: ctx.adapter,
      tenant,
      id: body.event_id,
      kind: 'raw',
      shape: 'event_callback',
      type: 'message_deleted',
      channel: textOf(body.event.channel),
      thread,
      endsThread: true,
      retry: ctx.retry,
      receivedAt: ctx.receivedAt,
      payload: body,
    },
  };
}
