import { createDiscordSigner } from '@rt/testing/discord';
import { describe, expect, it } from 'vitest';
import { importPublicKey } from './public-key.js';
import { checkSignatureHeaders, verifyDiscordSignature } from './verify-signature.js';

describe('Ed25519 verification', () => {
  const signer = createDiscordSigner();
  const key = importPublicKey(signer.publicKey);
  const body = '{"type":1}';

  it('accepts a signature by the application key over timestamp + body', () => {
    const headers = signer.sign(body, 1_700_000_000);
    expect(
      verifyDiscordSignature({
        key,
        signature: headers['x-signature-ed25519'],
        timestamp: headers['x-signature-timestamp'],
        rawBody: body,
      }),
    ).toEqual({ ok: true });
  });

  it('refuses a signature by another key, a tampered body and a tampered timestamp', () => {
    const other = createDiscordSigner().sign(body, 1_700_000_000);
    const good = signer.sign(body, 1_700_000_000);
    const check = (signature: string, timestamp: string, rawBody: string) =>
      verifyDiscordSignature({ key, signature, timestamp, rawBody });
    const mismatch = { ok: false, reason: 'signature_mismatch' };
    expect(check(other['x-signature-ed25519'], '1700000000', body)).toEqual(mismatch);
    expect(check(good['x-signature-ed25519'], '1700000000', '{"type":2}')).toEqual(mismatch);
    expect(check(good['x-signature-ed25519'], '1700000001', body)).toEqual(mismatch);
  });

  it('tells missing and malformed headers apart before any body is needed', () => {
    const hex = 'a'.repeat(128);
    expect(checkSignatureHeaders(null, '1')).toEqual({ ok: false, reason: 'missing_headers' });
    expect(checkSignatureHeaders(hex, null)).toEqual({ ok: false, reason: 'missing_headers' });
    expect(checkSignatureHeaders('zz', '1')).toEqual({ ok: false, reason: 'malformed_signature' });
    expect(checkSignatureHeaders('a'.repeat(127), '1')).toEqual({
      ok: false,
      reason: 'malformed_signature',
    });
    expect(checkSignatureHeaders(hex, 'yesterday')).toEqual({
      ok: false,
      reason: 'malformed_timestamp',
    });
    expect(checkSignatureHeaders(hex, '1700000000')).toEqual({ ok: true });
  });

  it('refuses a public key that is not 32 bytes of hex, naming the option', () => {
    expect(() => importPublicKey('abc')).toThrow(/publicKey/);
    expect(() => importPublicKey(42)).toThrow(TypeError);
    expect(() => importPublicKey('g'.repeat(64))).toThrow(/publicKey/);
  });
});
