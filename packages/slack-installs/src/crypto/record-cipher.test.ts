import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InstallationDecryptError } from '../errors.js';
import { RecordCipher } from './record-cipher.js';

const A = { id: 'a', key: randomBytes(32).toString('base64') };
const B = { id: 'b', key: randomBytes(32) };

describe('RecordCipher', () => {
  it('opens what it sealed, and never writes the plaintext', () => {
    const cipher = new RecordCipher([A]);
    const sealed = cipher.seal('xoxb-secret-token', 'k#installation');
    expect(sealed).not.toContain('xoxb');
    expect(sealed.startsWith('v1.a.')).toBe(true);
    expect(cipher.open(sealed, 'k#installation')).toBe('xoxb-secret-token');
  });

  it('reads records sealed with key A after rotation to key B, and seals new ones with B', () => {
    const old = new RecordCipher([A]).seal('old record', 'ctx');
    const rotated = new RecordCipher([B, A]);
    expect(rotated.open(old, 'ctx')).toBe('old record');
    expect(rotated.seal('new', 'ctx').startsWith('v1.b.')).toBe(true);
    expect(rotated.currentKeyId).toBe('b');
  });

  it('refuses a record whose key was dropped, naming the key id', () => {
    const old = new RecordCipher([A]).seal('old record', 'ctx');
    const error = (() => {
      try {
        new RecordCipher([B]).open(old, 'ctx');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InstallationDecryptError);
    expect(error).toMatchObject({ code: 'RT_INSTALL_DECRYPT', keyId: 'a' });
  });

  it('refuses a tampered ciphertext, tag, IV, a short tag or another slot', () => {
    const cipher = new RecordCipher([A]);
    const sealed = cipher.seal('xoxb-secret-token', 'ctx');
    const parts = sealed.split('.');
    const flip = (index: number) => {
      const copy = [...parts];
      const bytes = Buffer.from(copy[index] as string, 'base64url');
      bytes[0] = (bytes[0] as number) ^ 1;
      copy[index] = bytes.toString('base64url');
      return copy.join('.');
    };
    for (const bad of [flip(2), flip(3), flip(4)]) {
      expect(() => cipher.open(bad, 'ctx')).toThrow(InstallationDecryptError);
    }
    const short = [
      ...parts.slice(0, 3),
      Buffer.from(parts[3] as string, 'base64url')
        .subarray(0, 4)
        .toString('base64url'),
      parts[4],
    ].join('.');
    expect(() => cipher.open(short, 'ctx')).toThrow(InstallationDecryptError);
    expect(() => cipher.open(sealed, 'other-ctx')).toThrow(InstallationDecryptError);
    expect(() => cipher.open('not a record', 'ctx')).toThrow(InstallationDecryptError);
  });

  it('validates its keys, never echoing key material', () => {
    expect(() => new RecordCipher([])).toThrow(TypeError);
    expect(() => new RecordCipher([{ id: 'a', key: 'c2hvcnQ=' }])).toThrow(/32 bytes/);
    expect(() => new RecordCipher([A, { ...A }])).toThrow(/repeats/);
    expect(() => new RecordCipher([{ id: 'bad id', key: A.key }])).toThrow(/id/);
    try {
      new RecordCipher([{ id: 'a', key: 'c2VjcmV0LWtleS1tYXRlcmlhbA==' }]);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('c2VjcmV0');
    }
  });
});
