import { createDiscordSigner } from '@rt/testing/discord';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGNATURE_TOLERANCE_MS, isFresh } from './freshness.js';
import { importPublicKey } from './public-key.js';
import { checkSignatureHeaders, verifyDiscordSignature } from './verify-signature.js';

const HEX_SIGNATURE = 'a'.repeat(128);
/** Epoch seconds from 2001 to 2286 (ten digits), and windows from 1 ms to a day. */
const seconds = fc.integer({ min: 1_000_000_000, max: 9_999_999_999 });
const windows = fc.integer({ min: 1, max: 86_400_000 });
const offsets = fc.integer({ min: -172_800_000, max: 172_800_000 });

describe('the freshness window of X-Signature-Timestamp', () => {
  it('defaults to 15 minutes, the life of an interaction token', () => {
    expect(DEFAULT_SIGNATURE_TOLERANCE_MS).toBe(900_000);
  });

  it('accepts exactly the timestamps within the window of now, in either direction', () => {
    fc.assert(
      fc.property(seconds, offsets, windows, (timestampS, offsetMs, toleranceMs) => {
        const nowMs = timestampS * 1000 + offsetMs;
        const verdict = checkSignatureHeaders(HEX_SIGNATURE, String(timestampS), {
          nowMs,
          toleranceMs,
        });
        if (Math.abs(offsetMs) <= toleranceMs) expect(verdict).toEqual({ ok: true });
        else expect(verdict).toEqual({ ok: false, reason: 'stale_timestamp' });
      }),
    );
  });

  it('is inclusive at both edges and refuses one millisecond past either', () => {
    fc.assert(
      fc.property(seconds, windows, (timestampS, toleranceMs) => {
        const at = timestampS * 1000;
        const fresh = (nowMs: number) => isFresh(String(timestampS), { nowMs, toleranceMs });
        expect([fresh(at - toleranceMs), fresh(at + toleranceMs)]).toEqual([true, true]);
        expect([fresh(at - toleranceMs - 1), fresh(at + toleranceMs + 1)]).toEqual([false, false]);
      }),
    );
  });

  it('refuses a correctly signed but stale request, and only as stale', () => {
    const signer = createDiscordSigner();
    const key = importPublicKey(signer.publicKey);
    const rawBody = '{"type":3}';
    fc.assert(
      fc.property(seconds, offsets, (timestampS, offsetMs) => {
        const headers = signer.sign(rawBody, timestampS);
        const verdict = verifyDiscordSignature({
          key,
          signature: headers['x-signature-ed25519'],
          timestamp: headers['x-signature-timestamp'],
          rawBody,
          freshness: { nowMs: timestampS * 1000 + offsetMs, toleranceMs: 60_000 },
        });
        expect(verdict).toEqual(
          Math.abs(offsetMs) <= 60_000 ? { ok: true } : { ok: false, reason: 'stale_timestamp' },
        );
      }),
      { numRuns: 50 },
    );
  });

  it('checks the shape before the window: a malformed timestamp is never called stale', () => {
    fc.assert(
      fc.property(fc.string(), (timestamp) => {
        fc.pre(!/^\d{1,15}$/.test(timestamp));
        const verdict = checkSignatureHeaders(HEX_SIGNATURE, timestamp, {
          nowMs: 0,
          toleranceMs: 1,
        });
        expect(verdict).toEqual({ ok: false, reason: 'malformed_timestamp' });
      }),
    );
  });
});
