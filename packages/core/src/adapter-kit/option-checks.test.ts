import { describe, expect, it } from 'vitest';
import {
  checkAbsoluteUrl,
  checkNonEmptyText,
  checkOptionsObject,
  checkPositiveInteger,
} from './option-checks.js';

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

describe('checkOptionsObject and checkAbsoluteUrl', () => {
  it('returns an options object, and refuses anything else naming the factory', () => {
    const options = { a: 1 };
    expect(checkOptionsObject('createDemoAdapter', options)).toBe(options);
    expect(() => checkOptionsObject('createDemoAdapter', null as unknown as object)).toThrow(
      new TypeError('createDemoAdapter needs an options object'),
    );
  });

  it('returns an absolute URL, and refuses a relative one naming the option', () => {
    expect(checkAbsoluteUrl('apiUrl', 'http://127.0.0.1:1/api')).toBe('http://127.0.0.1:1/api');
    expect(() => checkAbsoluteUrl('apiUrl', '/api')).toThrow(
      new TypeError('apiUrl must be an absolute URL, got "/api"'),
    );
    expect(() => checkAbsoluteUrl('apiUrl', 3)).toThrow(TypeError);
  });
});
