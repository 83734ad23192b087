import type { RtEvent } from '@rt/core';
import type { SlackEventCallback } from '../parse/payload-types.js';

/** The assistant thread (Slack's AI app container) an event belongs to. */
export interface SlackAssistantThread {
  /** The assistant DM channel (`D...`). */
  readonly channel: string;
  readonly threadTs: string;
  /** The user the thread is with, when the event names them. */
  readonly user: string | undefined;
  /**
   * Where the user was when they opened the thread or switched (`assistant_thread.context`:
   * `channel_id`, `team_id`, `enterprise_id`); `undefined` for thread messages.
   */
  readonly context: Readonly<Record<string, unknown>> | undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

interface InnerAssistantEvent {
  readonly type?: unknown;
  readonly subtype?: unknown;
  readonly channel?: unknown;
  readonly channel_type?: unknown;
  readonly thread_ts?: unknown;
  readonly user?: unknown;
  readonly bot_id?: unknown;
  readonly assistant_thread?: {
    readonly user_id?: unknown;
    readonly channel_id?: unknown;
    readonly thread_ts?: unknown;
    readonly context?: unknown;
  };
}

function innerOf(event: RtEvent): InnerAssistantEvent | undefined {
  if (event.shape !== 'event_callback') return undefined;
  return (event.payload as SlackEventCallback | undefined)?.event as
    | InnerAssistantEvent
    | undefined;
}

/** `assistant_thread_started`: the user opened a new assistant thread. */
export function isAssistantThreadStarted(event: RtEvent): boolean {
  return event.type === 'assistant_thread_started' && assistantThreadOf(event) !== undefined;
}

/** `assistant_thread_context_changed`: the user moved to another channel with the thread open. */
export function isAssistantThreadContextChanged(event: RtEvent): boolean {
  return (
    event.type === 'assistant_thread_context_changed' && assistantThreadOf(event) !== undefined
  );
}

/**
 * A user's message in an assistant thread (Bolt's rule): a `message` in an `im` channel, inside a
 * thread, without a subtype other than `file_share`, written by a user (not a bot).
 */
export function isAssistantThreadMessage(event: RtEvent): boolean {
  const inner = innerOf(event);
  if (inner === undefined || inner.type !== 'message') return false;
  if (inner.subtype !== undefined && inner.subtype !== 'file_share') return false;
  return (
    inner.channel_type === 'im' &&
    text(inner.thread_ts) !== undefined &&
    text(inner.channel) !== undefined &&
    text(inner.user) !== undefined &&
    inner.bot_id === undefined
  );
}

/**
 * The assistant thread of `event`: from `assistant_thread` for the thread events, from the
 * message for a message in an assistant thread; `undefined` for anything else.
 */
export function assistantThreadOf(event: RtEvent): SlackAssistantThread | undefined {
  const inner = innerOf(event);
  if (inner === undefined) return undefined;
  const thread = inner.assistant_thread;
  if (thread !== undefined && thread !== null) {
    const channel = text(thread.channel_id);
    const threadTs = text(thread.thread_ts);
    if (channel === undefined || threadTs === undefined) return undefined;
    const context =
      typeof thread.context === 'object' && thread.context !== null
        ? (thread.context as Record<string, unknown>)
        : undefined;
    return { channel, threadTs, user: text(thread.user_id), context };
  }
  if (!isAssistantThreadMessage(event)) return undefined;
  return {
    channel: text(inner.channel) as string,
    threadTs: text(inner.thread_ts) as string,
    user: text(inner.user),
    context: undefined,
  };
}
