import { buildButton, buildChatInputCommand, buildPing } from '@rt/testing/discord';
import { describe, expect, it } from 'vitest';
import { parseInteraction } from './parse-interaction.js';

describe('parseInteraction', () => {
  it('recognises PING and every dispatchable type', () => {
    expect(parseInteraction(JSON.stringify(buildPing()))).toEqual({ type: 'ping' });
    expect(parseInteraction(JSON.stringify(buildChatInputCommand()))).toMatchObject({
      type: 'interaction',
      shape: 'application_command',
    });
    expect(parseInteraction(JSON.stringify(buildButton()))).toMatchObject({
      shape: 'message_component',
    });
  });

  it.each([
    ['truncated JSON', '{"type":2,"id":', /not valid JSON/],
    ['a JSON array', '[]', /not a JSON object/],
    ['null', 'null', /not a JSON object/],
    ['no type', '{"id":"1"}', /no numeric type/],
    [
      'an unknown type',
      '{"type":99,"id":"1","token":"t","application_id":"1","data":{}}',
      /unknown interaction type 99/,
    ],
  ])('refuses %s with a DiscordRequestError', (_name, body, message) => {
    expect(() => parseInteraction(body)).toThrow(message);
    try {
      parseInteraction(body);
    } catch (error) {
      expect(error).toMatchObject({ code: 'RT_DISCORD_BAD_REQUEST' });
    }
  });

  it.each(['id', 'token', 'application_id', 'data'])('refuses a command without %s', (field) => {
    const payload: Record<string, unknown> = { ...buildChatInputCommand() };
    delete payload[field];
    expect(() => parseInteraction(JSON.stringify(payload))).toThrow(
      new RegExp(`application_command interaction has no ${field}`),
    );
  });
});
