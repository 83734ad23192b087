import type { EventKind } from '@rt/core';
import { installationMarkKey } from '@rt/core/adapter';
import type { SlackInnerEvent } from '../parse/payload-types.js';
import { textOf } from './normalized.js';

/**
 * How one message that mentions the bot, delivered both as an `app_mention` and as a `message`
 * (an app subscribed to both), is dispatched. `'mention-wins'` (the default): one handler run per
 * message, by the mention handlers. `'both'`: each copy runs its own handlers (two runs).
 */
export type MentionAndMessage = 'mention-wins' | 'both';

/** What a message-like inner event adds to its `RtEvent`: secondary identity and routing. */
export interface MessageIdentity {
  /** The secondary identity: one mark key of the event's installation. */
  readonly aliases?: readonly string[];
  /** Set for the `message` copy of a message that mentions the bot, under `'mention-wins'`. */
  readonly kind?: EventKind;
  readonly fallbackKind?: EventKind;
}

const NONE: MessageIdentity = Object.freeze({});

/** True when `text` mentions user `user` (`<@U123>` or `<@U123|name>`). */
export function mentionsUser(text: unknown, user: string): boolean {
  return typeof text === 'string' && (text.includes(`<@${user}>`) || text.includes(`<@${user}|`));
}

function tsOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null
    ? textOf((value as { ts?: unknown }).ts)
    : undefined;
}

/** The identity whose one alias is the `kind` mark key of `channel:id`; none without an `id`. */
function only(
  kind: string,
  adapter: string,
  tenant: string,
  channel: string,
  id: string | undefined,
): MessageIdentity {
  if (id === undefined) return NONE;
  return { aliases: [installationMarkKey(kind, adapter, tenant, `${channel}:${id}`)] };
}

/**
 * The secondary identity of a message-like inner event of installation `(adapter, tenant)`, so
 * that Slack sending one message under two event ids, or as an `app_mention` and a `message`, is
 * handled once (ADR 0012). Keys (`installationMarkKey`, ids `<channel>:<ts>...`):
 * - a `message` (no subtype or any subtype below not named): `message` `<channel>:<ts>`;
 * - an `app_mention`: the same key under `'mention-wins'` (so the two copies of one message are
 *   one identity), `mention` `<channel>:<ts>` under `'both'` (each copy its own);
 * - `message_changed` (an edit): `message-edit` `<channel>:<edited ts>:<the edit's own ts>`, the
 *   edited message's `message.ts` and the notice's `ts` (else `event_ts`): each edit is one
 *   identity, distinct from the message and from its other edits;
 * - `message_deleted`: `message-delete` `<channel>:<deleted_ts>`.
 * No channel or ts: no secondary identity (the event id alone).
 *
 * Under `'mention-wins'`, the `message` copy of a message whose text mentions `botUser` is a
 * `mention` with `fallbackKind` `message`: whichever copy arrives first runs the mention handlers
 * and marks the shared identity, and the other copy is a duplicate, in either order and
 * concurrently. A bot without mention handlers still gets it in its message handlers. Without a
 * known `botUser` the copy stays a `message` (still one run: the copy that arrives first).
 */
export function messageIdentityOf(
  inner: SlackInnerEvent,
  adapter: string,
  tenant: string,
  rule: MentionAndMessage,
  botUser: string | undefined,
): MessageIdentity {
  const channel = textOf(inner.channel);
  if (channel === undefined) return NONE;
  const ts = textOf(inner.ts);
  if (inner.type === 'app_mention') {
    return only(rule === 'both' ? 'mention' : 'message', adapter, tenant, channel, ts);
  }
  if (inner.type !== 'message') return NONE;
  if (inner.subtype === 'message_changed') {
    const edited = tsOf(inner.message);
    const own = ts ?? textOf(inner.event_ts);
    const id = edited && own ? `${edited}:${own}` : undefined;
    return only('message-edit', adapter, tenant, channel, id);
  }
  if (inner.subtype === 'message_deleted') {
    return only('message-delete', adapter, tenant, channel, textOf(inner.deleted_ts));
  }
  const identity = only('message', adapter, tenant, channel, ts);
  if (identity === NONE) return NONE;
  if (rule === 'mention-wins' && botUser !== undefined && mentionsUser(inner.text, botUser)) {
    return { aliases: identity.aliases, kind: 'mention', fallbackKind: 'message' };
  }
  return identity;
}
