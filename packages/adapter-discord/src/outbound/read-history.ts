import type { REST } from '@discordjs/rest';
import type { HistoryMessage } from '@rt/core';
import { type APIMessage, Routes } from 'discord-api-types/v10';
import { restCall } from './call.js';

/** Discord's cap on one page of channel messages. */
const PAGE_MAX = 100;

/** Converts one channel message; `at` is its timestamp in epoch milliseconds. */
export function toHistoryMessage(message: APIMessage): HistoryMessage {
  return {
    id: message.id,
    ...(typeof message.author?.id === 'string' ? { user: message.author.id } : {}),
    text: typeof message.content === 'string' ? message.content : '',
    at: Date.parse(message.timestamp),
    fromBot: message.author?.bot === true || message.webhook_id !== undefined,
  };
}

/**
 * Reads the latest `limit` messages of a channel (a thread is a channel) through
 * `GET /channels/{id}/messages`, paging backwards with `before`, and returns them oldest first.
 * Rejects with `signal.reason` on abort (the call in flight is cancelled).
 */
export async function readChannel(
  rest: REST,
  channel: string,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<HistoryMessage[]> {
  const newestFirst: APIMessage[] = [];
  let before: string | undefined;
  while (newestFirst.length < limit) {
    const query = new URLSearchParams({
      limit: String(Math.min(PAGE_MAX, limit - newestFirst.length)),
    });
    if (before !== undefined) query.set('before', before);
    const page = await restCall<APIMessage[]>(
      rest,
      { method: 'get', route: Routes.channelMessages(channel), data: { query } },
      signal,
    );
    if (!Array.isArray(page) || page.length === 0) break;
    newestFirst.push(...page);
    before = page[page.length - 1]?.id;
    if (page.length < PAGE_MAX) break;
  }
  return newestFirst.slice(0, limit).reverse().map(toHistoryMessage);
}
