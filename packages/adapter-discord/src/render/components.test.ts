import { actions, button, card, escapeText, fields, formErrors } from '@rt/core';
import { EVERY_ELEMENT_CARD, EVERY_FIELD_FORM } from '@rt/testing';
import { validateDiscordMessage, validateDiscordModal } from '@rt/testing/discord';
import { describe, expect, it } from 'vitest';
import {
  discordFormErrors,
  renderDiscordForm,
  renderDiscordMessage,
  splitCustomId,
} from './components.js';
import { splitText, toDiscordMarkdown } from './markdown.js';

const golden = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('Discord rendering', () => {
  it('renders a card of every element kind as Components V2 (golden) that Discord accepts', async () => {
    const bodies = renderDiscordMessage(EVERY_ELEMENT_CARD);
    expect(bodies).toHaveLength(1);
    await expect(golden(bodies[0])).toMatchFileSnapshot('./__golden__/card.json');
    expect(validateDiscordMessage(bodies[0])).toEqual([]);
  });

  it('renders a form of every field kind as a modal (golden) that Discord accepts', async () => {
    const modal = renderDiscordForm(EVERY_FIELD_FORM);
    await expect(golden(modal)).toMatchFileSnapshot('./__golden__/form.json');
    expect(validateDiscordModal(modal)).toEqual([]);
  });

  it('writes markdown-subset text as Discord markdown and escapes user text', () => {
    expect(toDiscordMarkdown('**b** _i_ ~~s~~ `c` [l](https://x.io) <@1> <#2>')).toBe(
      '**b** *i* ~~s~~ `c` [l](https://x.io) <@1> <#2>',
    );
    expect(toDiscordMarkdown(escapeText('# not a heading *x* <@1>'))).toBe(
      '\\# not a heading \\*x\\* \\<@1\\>',
    );
  });

  it('splits long text at paragraph boundaries, every part within 2000 characters', () => {
    const paragraph = 'word '.repeat(300).trim(); // 1499 characters
    const parts = splitText([paragraph, paragraph, 'end'].join('\n\n'), 2000);
    expect(parts).toEqual([paragraph, `${paragraph}\n\nend`]);
    const bodies = renderDiscordMessage([paragraph, paragraph].join('\n\n'));
    expect(bodies.map((b) => b.content)).toEqual([paragraph, paragraph]);
    for (const body of bodies) expect(validateDiscordMessage(body)).toEqual([]);
    expect(splitText('x'.repeat(4500), 2000).map((p) => p.length)).toEqual([2000, 2000, 500]);
  });

  it('carries a button value in its custom_id and reads it back', () => {
    const [body] = renderDiscordMessage(EVERY_ELEMENT_CARD);
    expect(JSON.stringify(body)).toContain('"custom_id":"ship|v2"');
    expect(splitCustomId('ship|v2')).toEqual({ id: 'ship', value: 'v2' });
    expect(splitCustomId('plain')).toEqual({ id: 'plain' });
  });

  it('lays more than five buttons over several rows and every field pair in one text display', () => {
    const seven = Array.from({ length: 7 }, (_, i) => button(`b${i}`, `B${i}`));
    const [rows] = renderDiscordMessage(card({}, actions(...seven)));
    const container = (
      rows?.components as { components: { components: unknown[] }[] }[] | undefined
    )?.[0];
    expect(container?.components.map((row) => row.components.length)).toEqual([5, 2]);
    expect(validateDiscordMessage(rows)).toEqual([]);
    const [body] = renderDiscordMessage(card({}, fields({ a: '1', b: '2' })));
    expect(validateDiscordMessage(body)).toEqual([]);
    expect(JSON.stringify(body)).toContain('**a**\\n1\\n**b**\\n2');
  });

  it('shows form errors as an ephemeral message', () => {
    expect(discordFormErrors(formErrors({ title: 'Too short' }))).toEqual({
      content: '**title**: Too short',
      flags: 64,
      allowed_mentions: { parse: [] },
    });
  });

  it('refuses two components with the same id and value (Discord wants unique custom ids)', () => {
    expect(() =>
      renderDiscordMessage(card({}, actions(button('vote', 'Yes'), button('vote', 'Also yes')))),
    ).toThrow(/card.children\[0\].elements\[1\]: two components share the id and value "vote"/);
  });
});
