import { describe, expect, it } from 'vitest';
import {
  validateDiscordCallback,
  validateDiscordMessage,
  validateDiscordModal,
} from './validate-components.js';

const V2 = 1 << 15;
const text = (content: string) => ({ type: 10, content });
const button = (custom_id: string) => ({ type: 2, style: 1, label: 'Go', custom_id });

describe('Discord component validation (as the fake applies it)', () => {
  it('accepts plain messages and well-formed Components V2', () => {
    expect(validateDiscordMessage({ content: 'hi' })).toEqual([]);
    expect(
      validateDiscordMessage({
        flags: V2,
        components: [
          { type: 17, components: [text('## T'), { type: 1, components: [button('a')] }] },
        ],
      }),
    ).toEqual([]);
  });

  it('counts every component and all text of a V2 message', () => {
    const many = Array.from({ length: 40 }, (_, i) => text(`t${i}`));
    expect(validateDiscordMessage({ flags: V2, components: many })).toEqual([]);
    expect(validateDiscordMessage({ flags: V2, components: [...many, text('x')] })).toEqual([
      'components: must have 40 or fewer components',
    ]);
    expect(
      validateDiscordMessage({
        flags: V2,
        components: [text('a'.repeat(2000)), text('a'.repeat(2001))],
      }),
    ).toEqual(['components: text displays must be 4000 or fewer in length']);
  });

  it('refuses long content, six buttons in a row, a select sharing a row, and bad custom ids', () => {
    expect(validateDiscordMessage({ content: 'a'.repeat(2001) })).toEqual([
      'content: must be 2000 or fewer in length',
    ]);
    const six = Array.from({ length: 6 }, (_, i) => button(`b${i}`));
    expect(
      validateDiscordMessage({ content: 'x', components: [{ type: 1, components: six }] })[0],
    ).toMatch(/between 1 and 5/);
    const select = { type: 3, custom_id: 's', options: [{ label: 'A', value: 'a' }] };
    expect(
      validateDiscordMessage({
        content: 'x',
        components: [{ type: 1, components: [select, button('b')] }],
      }),
    ).toContain('components.0.components: a select must be alone in its row');
    expect(
      validateDiscordMessage({
        content: 'x',
        components: [{ type: 1, components: [button('a'.repeat(101))] }],
      }),
    ).toEqual(['components.0.components.0.custom_id: must be 100 or fewer in length']);
  });

  it('checks modals: title, at most five labels, text inputs and selects', () => {
    const label = (component: Record<string, unknown>) => ({ type: 18, label: 'L', component });
    const input = { type: 4, custom_id: 'f', style: 1 };
    expect(
      validateDiscordModal({ custom_id: 'm', title: 'T', components: [label(input)] }),
    ).toEqual([]);
    expect(
      validateDiscordModal({ custom_id: 'm', title: 'a'.repeat(46), components: [label(input)] }),
    ).toEqual(['data.title: must be 45 or fewer in length']);
    expect(
      validateDiscordModal({ custom_id: 'm', title: 'T', components: Array(6).fill(label(input)) }),
    ).toEqual(['data.components: must have between 1 and 5 components']);
    expect(
      validateDiscordCallback({ type: 9, data: { custom_id: 'm', title: 'T', components: [] } }),
    ).toEqual(['data.components: must have between 1 and 5 components']);
    expect(validateDiscordCallback({ type: 5 })).toEqual([]);
  });
});
