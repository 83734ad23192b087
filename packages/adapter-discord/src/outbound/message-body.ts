import type { OutboundMessage } from '@rt/core';

/**
 * What handlers may post: plain text, core's neutral `{ text, extra }` (with `extra` holding any
 * Discord message fields: `embeds`, `components`, `allowed_mentions`, ...), or a Discord message
 * body as is (`{ content, embeds, ... }`).
 */
export type DiscordMessage = string | OutboundMessage | DiscordMessageBody;

/** A Discord message body (the JSON of a create-message or webhook call). */
export interface DiscordMessageBody {
  readonly content?: string;
  readonly [field: string]: unknown;
}

/** The JSON body of `message`. */
export function messageBody(message: DiscordMessage): Record<string, unknown> {
  if (typeof message === 'string') return { content: message };
  if (typeof (message as OutboundMessage).text === 'string') {
    const { text, extra } = message as OutboundMessage;
    return { content: text, ...extra };
  }
  return { ...(message as DiscordMessageBody) };
}
