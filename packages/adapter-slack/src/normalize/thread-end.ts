import type { SlackInnerEvent } from '../parse/payload-types.js';
import { textOf } from './normalized.js';

/**
 * The thread a `message_deleted` event ends: the deleted message's ts when that message was the
 * root of its thread (its `previous_message` has no `thread_ts`, or its own ts as `thread_ts`),
 * else `undefined` (a deleted reply ends nothing). Slack has no per-thread archive event:
 * `channel_archive`, `group_archive` and `channel_deleted` stop a whole channel's messages, and
 * its threads' subscriptions then lapse at their TTL (docs/conversations.md).
 */
export function threadEndedBy(inner: SlackInnerEvent): string | undefined {
  if (inner.type !== 'message' || inner.subtype !== 'message_deleted') return undefined;
  const deleted = textOf(inner.deleted_ts);
  const previous = inner.previous_message as { readonly thread_ts?: unknown } | undefined;
  if (deleted === undefined || typeof previous !== 'object' || previous === null) return undefined;
  const rootOf = textOf(previous.thread_ts);
  return rootOf === undefined || rootOf === deleted ? deleted : undefined;
}
