import type { OutboundMessage } from '../adapter/adapter.js';
import type { Card } from './card.js';
import { plainText } from './markdown-parse.js';

/**
 * What a handler posts: a string in the markdown subset (`markdown.ts`), a `Card`, or an
 * `OutboundMessage` `{ text, extra }` whose `text` is the platform's own markup, passed through
 * untouched with `extra` (Slack `blocks`, Discord `embeds`...): the escape hatch.
 */
export type Message = string | Card | OutboundMessage;

/** True when `message` is a card. */
export function isCard(message: unknown): message is Card {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { type?: unknown }).type === 'card' &&
    Array.isArray((message as { children?: unknown }).children)
  );
}

/** True when `message` is a platform-text `OutboundMessage` (not a card). */
export function isOutboundMessage(message: unknown): message is OutboundMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    !isCard(message) &&
    typeof (message as { text?: unknown }).text === 'string'
  );
}

/**
 * The plain notification text of a card: its `fallback`, else its title and first section or
 * context line (markup removed), else `'(card)'`.
 */
export function cardFallback(card: Card): string {
  if (card.fallback !== undefined && card.fallback.length > 0) return card.fallback;
  const first = card.children.find((child) => child.type === 'section' || child.type === 'context');
  const parts = [card.title, first !== undefined ? plainText(first.text) : undefined].filter(
    (part): part is string => part !== undefined && part.length > 0,
  );
  return parts.length > 0 ? parts.join(': ') : '(card)';
}
