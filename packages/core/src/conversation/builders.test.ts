import { describe, expect, it } from 'vitest';
import { actions, button, card, fields, option, section, select } from './card.js';
import { emojiCharacter, emojiName } from './emoji.js';
import { form, formErrors, isFormErrors, selectField, textField } from './form.js';
import { cardFallback, isCard, isOutboundMessage } from './message.js';

describe('card and form builders', () => {
  it('build frozen plain objects a renderer can read', () => {
    const built = card(
      { title: 'Deploy' },
      section('Ready to ship **v2**?'),
      fields({ Env: 'prod' }),
      actions(
        button('ship', 'Ship', { value: 'v2', style: 'primary' }),
        select('env', [option('Prod', 'prod')]),
      ),
    );
    expect(Object.isFrozen(built)).toBe(true);
    expect(isCard(built)).toBe(true);
    expect(isOutboundMessage(built)).toBe(false);
    expect(isOutboundMessage({ text: 'raw' })).toBe(true);
    expect(built.children.map((c) => c.type)).toEqual(['section', 'fields', 'actions']);
    expect(cardFallback(built)).toBe('Deploy: Ready to ship v2?');
    expect(cardFallback(card({ fallback: 'custom' }))).toBe('custom');
    expect(cardFallback(card({}))).toBe('(card)');
  });

  it('reject ids that cannot round trip, naming the field', () => {
    expect(() => button('', 'x')).toThrow(/button id must be a non-empty string/);
    expect(() => button('a|b', 'x')).toThrow(/button id must not contain "\|"/);
    expect(() => select('x'.repeat(101), [])).toThrow(/select id must be at most 100/);
    expect(() =>
      form({ id: 'f', title: 'T', fields: [textField('a', 'A'), selectField('a', 'B', [])] }),
    ).toThrow(/field id "a" is used twice/);
  });

  it('mark form errors so the runtime and adapters can recognise them', () => {
    const errors = formErrors({ name: 'required' });
    expect(isFormErrors(errors)).toBe(true);
    expect(isFormErrors({ name: 'required' })).toBe(false);
    expect(() => formErrors({})).toThrow(TypeError);
  });

  it('translate the common emoji between short names and characters', () => {
    expect(emojiName('👀')).toBe('eyes');
    expect(emojiName(':thumbsup:')).toBe('thumbsup');
    expect(emojiName('🦜')).toBeUndefined();
    expect(emojiCharacter(':eyes:')).toBe('👀');
    expect(emojiCharacter('🦜')).toBe('🦜');
    expect(emojiCharacter('party:123456')).toBe('party:123456');
    expect(emojiCharacter(':no_such_emoji_name:')).toBeUndefined();
  });
});
