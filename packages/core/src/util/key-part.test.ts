import { describe, expect, it } from 'vitest';
import { installationPart, keyPart } from './key-part.js';

describe('keyPart', () => {
  it('returns the part itself when nothing needs escaping', () => {
    const id = 'T0ABCDE1234';
    expect(keyPart(id)).toBe(id);
    expect(keyPart('1733000000.000100')).toBe('1733000000.000100');
    expect(keyPart('a_b-c~d')).toBe('a_b-c~d');
  });

  it('escapes what encodeURIComponent escapes', () => {
    expect(keyPart('a:b')).toBe('a%3Ab');
    expect(keyPart('')).toBe('');
    expect(keyPart('é')).toBe('%C3%A9');
    expect(keyPart('!')).toBe('!');
  });

  it('equals encodeURIComponent for every code point below U+3000 and every 97th above, alone and beside safe characters', () => {
    const mismatches: number[] = [];
    for (let code = 0; code <= 0x10ffff; code += code < 0x3000 ? 1 : 97) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      for (const part of [char, `T0${char}`, `${char}.1`]) {
        if (keyPart(part) !== encodeURIComponent(part)) mismatches.push(code);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('throws URIError on a lone surrogate, as encodeURIComponent does', () => {
    expect(() => keyPart('\uD800')).toThrow(URIError);
  });
});

describe('installationPart', () => {
  it('is both parts escaped and joined by a colon, for the same installation again and for another', () => {
    expect(installationPart('slack', 'T0TEAM')).toBe('slack:T0TEAM');
    expect(installationPart('slack', 'T0TEAM')).toBe('slack:T0TEAM');
    expect(installationPart('slack', 'E0:ORG')).toBe('slack:E0%3AORG');
    expect(installationPart('my:slack', 'E0:ORG')).toBe('my%3Aslack:E0%3AORG');
    expect(installationPart('slack', 'T0TEAM')).toBe('slack:T0TEAM');
    // The same characters built afresh (as a parsed payload's tenant is) hit the kept result.
    expect(installationPart(['sl', 'ack'].join(''), ['T0', 'TEAM'].join(''))).toBe('slack:T0TEAM');
  });

  it('throws URIError like keyPart on a lone surrogate, and keeps its last good result', () => {
    expect(installationPart('slack', 'T1')).toBe('slack:T1');
    expect(() => installationPart('slack', '\uD800')).toThrow(URIError);
    expect(installationPart('slack', 'T1')).toBe('slack:T1');
  });
});
