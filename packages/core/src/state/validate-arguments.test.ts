import { describe, expect, it } from 'vitest';
import { installationMarkKey, MAX_MARK_KEYS } from './mark-keys.js';
import { assertMarkKeys } from './validate-arguments.js';

const key = (kind: string, id: string, tenant = 'T1') =>
  installationMarkKey(kind, 'slack', tenant, id);

describe('assertMarkKeys', () => {
  it('accepts one to MAX_MARK_KEYS distinct keys of one installation, of any kinds', () => {
    expect(() => assertMarkKeys([key('event', 'Ev1')])).not.toThrow();
    expect(() => assertMarkKeys([key('event', 'Ev1'), key('message', 'C1:1.2')])).not.toThrow();
    const most = Array.from({ length: MAX_MARK_KEYS }, (_, index) => key('event', `Ev${index}`));
    expect(() => assertMarkKeys(most)).not.toThrow();
  });

  it('accepts a single key of any form, as markEvent does', () => {
    expect(() => assertMarkKeys(['plain'])).not.toThrow();
  });

  it('rejects a value that is not an array with a TypeError', () => {
    for (const value of [undefined, null, 'event:slack:T1:Ev1', { length: 1, 0: 'k' }]) {
      expect(() => assertMarkKeys(value)).toThrow(TypeError);
    }
  });

  it('rejects no keys and more than MAX_MARK_KEYS with a RangeError naming the count', () => {
    expect(() => assertMarkKeys([])).toThrow(RangeError);
    expect(() => assertMarkKeys([])).toThrow(/got 0/);
    const many = Array.from({ length: MAX_MARK_KEYS + 1 }, (_, index) => key('event', `${index}`));
    expect(() => assertMarkKeys(many)).toThrow(RangeError);
  });

  it('rejects an empty or non-string key with a TypeError naming its index', () => {
    expect(() => assertMarkKeys([key('event', 'Ev1'), ''])).toThrow(TypeError);
    expect(() => assertMarkKeys([key('event', 'Ev1'), ''])).toThrow(/keys\[1\]/);
    expect(() => assertMarkKeys([7])).toThrow(/keys\[0\]/);
  });

  it('rejects a repeated key with a RangeError naming its index', () => {
    const first = key('event', 'Ev1');
    expect(() => assertMarkKeys([first, key('message', 'm'), first])).toThrow(RangeError);
    expect(() => assertMarkKeys([first, key('message', 'm'), first])).toThrow(/keys\[2\]/);
  });

  it('rejects keys of two installations, or not in the rt form, with a RangeError', () => {
    expect(() => assertMarkKeys([key('event', 'Ev1'), key('message', 'm', 'T2')])).toThrow(
      /keys\[1\] names another installation/,
    );
    expect(() => assertMarkKeys([key('event', 'Ev1'), 'plain'])).toThrow(
      /keys\[1\] is not in that form/,
    );
    expect(() => assertMarkKeys(['plain', key('event', 'Ev1')])).toThrow(
      /keys\[0\] is not in that form/,
    );
  });

  it('names the argument it was given', () => {
    expect(() => assertMarkKeys('x', 'identities')).toThrow(/identities/);
  });
});
