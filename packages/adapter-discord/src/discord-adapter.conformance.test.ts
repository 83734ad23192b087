import { DEFAULT_BODY_LIMIT_BYTES, type RtEvent } from '@rt/core';
import { stateWith } from '@rt/testing';
import {
  type ConformanceShape,
  type ReceivedAnswer,
  runAdapterConformance,
} from '@rt/testing/adapter';
import {
  buildAutocomplete,
  buildButton,
  buildChatInputCommand,
  buildMessageCommand,
  buildModalSubmit,
  buildSelect,
  buildUserCommand,
  createDiscordSigner,
  type DiscordTestInteraction,
} from '@rt/testing/discord';
import { expect } from 'vitest';
import { BUSY_CHOICE_VALUE } from './respond/busy-choice.js';
import { startHarness } from './test-support/harness.js';

/** Every bot of the suite verifies with this key; `wrong` signs the suite's "invalid" requests. */
const signer = createDiscordSigner();
const wrong = createDiscordSigner();

const json = (expected: unknown) => (answer: ReceivedAnswer) => {
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.json).toEqual(expected);
};
const refusal = (text: string) => ({
  status: 200,
  check: json({ type: 4, data: { content: text, flags: 64, allowed_mentions: { parse: [] } } }),
});

function deferredRow(
  name: string,
  payload: () => DiscordTestInteraction,
  type: 5 | 6,
): ConformanceShape<DiscordTestInteraction> {
  return {
    name,
    payload,
    accepted: { status: 200, check: json({ type }) },
    refused: (text) => refusal(text),
  };
}

/** The suite's handler answers autocomplete with one choice echoing what was typed. */
function answer(event: RtEvent): unknown {
  return event.shape === 'autocomplete'
    ? [{ name: `${event.text} result`, value: 'r1' }]
    : undefined;
}

const SHAPES: readonly ConformanceShape<DiscordTestInteraction>[] = [
  deferredRow('chat-input command', () => buildChatInputCommand(), 5),
  deferredRow('user context-menu command', () => buildUserCommand(), 5),
  deferredRow('message context-menu command', () => buildMessageCommand(), 5),
  deferredRow('button', () => buildButton(), 6),
  deferredRow('select', () => buildSelect(), 6),
  deferredRow('modal submit from a command', () => buildModalSubmit(), 5),
  deferredRow('modal submit from a component', () => buildModalSubmit({ fromMessage: true }), 6),
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

const raw = (body: string) => () => signer.request(body);

runAdapterConformance<DiscordTestInteraction>('discord adapter (HTTP interactions)', {
  async createBot({ runtime, busyText, unavailableText, state }) {
    const h = await startHarness({
      signer,
      runtime,
      adapter: { busyText, unavailableText },
      // A State the suite shares between two bots is the suite's to close, not the harness's.
      ...(state === undefined ? {} : { state: { ...stateWith(state, {}), close: async () => {} } }),
    });
    return {
      runtime: h.runtime,
      state: state ?? h.state,
      adapterName: h.adapter.name,
      send: (request) => h.adapter.handler(request),
      platformCalls: async () => {
        await h.adapter.drain();
        return [...h.fake.calls];
      },
      close: async () => {
        await h.fake.close();
        if (state === undefined) await h.state.close();
      },
    };
  },
  request: (payload, signature) =>
    signature === 'valid'
      ? signer.request(payload)
      : signature === 'invalid'
        ? wrong.request(payload)
        : signer.request(payload, { unsigned: true }),
  shapes: SHAPES,
  answer,
  oversizedPayload: () => ({ ...buildButton(), padding: 'x'.repeat(DEFAULT_BODY_LIMIT_BYTES) }),
  unparsable: [
    { name: 'truncated JSON', request: raw('{"type":2,"id":"1",') },
    { name: 'a JSON array', request: raw('[]') },
    {
      name: 'an unknown interaction type',
      request: raw(JSON.stringify({ ...buildButton(), type: 99 })),
    },
    {
      name: 'a command without data',
      request: () => {
        const { data: _data, ...rest } = buildChatInputCommand();
        return signer.request(rest);
      },
    },
  ],
});
