import type { HistoryMessage } from '@rt/core';
import type { WebClient } from '@slack/web-api';
import { withSignal } from './signal-web-client.js';

interface RepliesMessage {
  readonly ts?: string;
  readonly user?: string;
  readonly text?: string;
  readonly bot_id?: string;
  readonly subtype?: string;
}

/** Converts one `conversations.replies` message; `at` is the `ts` in epoch milliseconds. */
export function toHistoryMessage(message: RepliesMessage): HistoryMessage | undefined {
  if (typeof message.ts !== 'string') return undefined;
  return {
    id: message.ts,
    ...(typeof message.user === 'string' ? { user: message.user } : {}),
    text: typeof message.text === 'string' ? message.text : '',
    at: Math.round(Number(message.ts) * 1000),
    fromBot: message.bot_id !== undefined || message.subtype === 'bot_message',
  };
}

/**
 * Reads a thread through `conversations.replies`, oldest first, following cursors until `limit`
 * messages are collected. `signal` is checked before each page and passed to each page's request
 * (a `SignalWebClient` cancels it); on abort it rejects with `signal.reason`.
 */
export async function readThread(
  client: WebClient,
  where: { channel: string; thread: string },
  limit: number,
  signal: AbortSignal | undefined,
): Promise<HistoryMessage[]> {
  const messages: HistoryMessage[] = [];
  let cursor: string | undefined;
  do {
    signal?.throwIfAborted();
    const page = await client.conversations.replies(
      withSignal(
        {
          channel: where.channel,
          ts: where.thread,
          limit: Math.min(limit - messages.length, 200),
          ...(cursor !== undefined ? { cursor } : {}),
        },
        signal,
      ),
    );
    for (const raw of (page.messages ?? []) as RepliesMessage[]) {
      const message = toHistoryMessage(raw);
      if (message !== undefined && messages.length < limit) messages.push(message);
    }
    const next = page.response_metadata?.next_cursor;
    cursor =
      page.has_more === true && typeof next === 'string' && next.length > 0 ? next : undefined;
  } while (cursor !== undefined && messages.length < limit);
  signal?.throwIfAborted();
  return messages;
}
