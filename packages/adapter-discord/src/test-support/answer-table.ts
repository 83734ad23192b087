/**
 * The Discord answer table of docs/contract.md §9.2 as adapter-conformance rows: per interaction shape, the
 * callback when accepted and the refusal with a given text; deferred rows also name the REST call
 * a handler's `ctx.reply` becomes.
 */
import type { RtEvent } from '@rt/core';
import type { ConformanceShape, ReceivedAnswer } from '@rt/testing/adapter';
import {
  buildAutocomplete,
  buildButton,
  buildChatInputCommand,
  buildMessageCommand,
  buildModalSubmit,
  buildSelect,
  buildUserCommand,
  type DiscordTestInteraction,
} from '@rt/testing/discord';
import { expect } from 'vitest';
import { BUSY_CHOICE_VALUE } from '../respond/busy-choice.js';

/** The fake REST route of an `@original` edit. */
export const EDIT_ORIGINAL = 'PATCH /webhooks/:application/:token/messages/:message' as const;
/** The fake REST route of a follow-up message. */
export const FOLLOW_UP = 'POST /webhooks/:application/:token' as const;

/** The callback of every refusal with `text`: type 4, ephemeral, mentioning nobody. */
export const refusalBody = (text: string) => ({
  type: 4,
  data: { content: text, flags: 64, allowed_mentions: { parse: [] } },
});

/** Checks a JSON answer equal to `expected`. */
const json = (expected: unknown) => (answer: ReceivedAnswer) => {
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(answer.json).toEqual(expected);
};

/** A deferred shape's row: accepted with type 5 or 6, and where its `ctx.reply` goes. */
export interface DeferredRow extends ConformanceShape<DiscordTestInteraction> {
  /** A new interaction of this shape (the rows need no bot). */
  payload(): DiscordTestInteraction;
  readonly replyVia: typeof EDIT_ORIGINAL | typeof FOLLOW_UP;
}

function deferredRow(
  name: string,
  payload: () => DiscordTestInteraction,
  type: 5 | 6,
): DeferredRow {
  return {
    name,
    payload,
    accepted: { status: 200, check: json({ type }) },
    refused: (text) => ({ status: 200, check: json(refusalBody(text)) }),
    replyVia: type === 5 ? EDIT_ORIGINAL : FOLLOW_UP,
  };
}

/** Every deferred shape (all but autocomplete). */
export const DEFERRED_ROWS: readonly DeferredRow[] = [
  deferredRow('chat-input command', () => buildChatInputCommand(), 5),
  deferredRow('user context-menu command', () => buildUserCommand(), 5),
  deferredRow('message context-menu command', () => buildMessageCommand(), 5),
  deferredRow('button', () => buildButton(), 6),
  deferredRow('select', () => buildSelect(), 6),
  deferredRow('modal submit from a command', () => buildModalSubmit(), 5),
  deferredRow('modal submit from a component', () => buildModalSubmit({ fromMessage: true }), 6),
];

/** What the rows' handler answers: autocomplete gets one choice echoing what was typed. */
export function syncAnswer(event: RtEvent): unknown {
  return event.shape === 'autocomplete'
    ? [{ name: `${event.text} result`, value: 'r1' }]
    : undefined;
}

/** Every shape the Discord HTTP adapter dispatches, with its row of the docs/contract.md §9.2 table. */
export const DISCORD_SHAPE_ROWS: readonly ConformanceShape<DiscordTestInteraction>[] = [
  ...DEFERRED_ROWS,
  {
    name: 'autocomplete',
    sync: true,
    payload: () => buildAutocomplete({ focused: { name: 'topic', value: 'ca' } }),
    accepted: {
      status: 200,
      check: json({ type: 8, data: { choices: [{ name: 'ca result', value: 'r1' }] } }),
    },
    refused: (text) => ({
      status: 200,
      check: json({ type: 8, data: { choices: [{ name: text, value: BUSY_CHOICE_VALUE }] } }),
    }),
  },
];
