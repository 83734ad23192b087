import { describe, expect, it } from 'vitest';
import { checkNonEmptyText, checkPositiveInteger } from './option-checks.js';

describe('checkPositiveInteger', () => {
  it('returns a positive integer', () => {
    expect(checkPositiveInteger('limit', 3)).toBe(3);
  });

  it.each([[0], [-1], [1.5], [Number.NaN], ['3'], [undefined]])(
    'refuses %o with a RangeError naming the option',
    (value) => {
      expect(() => checkPositiveInteger('limit', value)).toThrow(RangeError);
      expect(() => checkPositiveInteger('limit', value)).toThrow(
        `limit must be a positive integer, got ${String(value)}`,
      );
    },
  );
});

describe('checkNonEmptyText', () => {
  it('returns a text with a visible character, untrimmed', () => {
    expect(checkNonEmptyText('busyText', ' Busy. ')).toBe(' Busy. ');
  });

  it.each([[''], ['  '], [7], [undefined]])(
    'refuses %o with a TypeError naming the option',
    (value) => {
      expect(() => checkNonEmptyText('busyText', value)).toThrow(TypeError);
      expect(() => checkNonEmptyText('busyText', value)).toThrow(
        'busyText must be a non-empty string',
      );
    },
  );
});
