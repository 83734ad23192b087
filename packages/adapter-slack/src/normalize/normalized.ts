import type { DeliveryRetry, RtEvent } from '@rt/core';
import type { MentionAndMessage } from './message-identity.js';

/** What normalising a verified payload produced. */
export type Normalized =
  /** Dispatch this event. */
  | { readonly type: 'event'; readonly event: RtEvent }
  /** Acknowledge 200 without dispatch (the bot's own message, an edit notice, ...). */
  | { readonly type: 'ignore'; readonly reason: string }
  /**
   * A view was submitted with the busy placeholder option chosen: answer with an error on input
   * block `blockId` instead of dispatching, or push a busy view when there is no input block.
   */
  | { readonly type: 'busy-option'; readonly blockId: string | undefined };

/** Per-delivery facts every normaliser needs. */
export interface NormalizeContext {
  readonly adapter: string;
  readonly receivedAt: number;
  readonly retry: DeliveryRetry | undefined;
  readonly botUserId: string | undefined;
  readonly botId: string | undefined;
  readonly ignoredMessageSubtypes: ReadonlySet<string>;
  /** The routing rule for one message delivered as `app_mention` and `message`. */
  readonly mentionAndMessage: MentionAndMessage;
}

/** A non-empty string, else `undefined`. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
