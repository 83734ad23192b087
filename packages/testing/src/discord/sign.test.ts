import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildPing } from './payloads.js';
import { createDiscordSigner } from './sign.js';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

describe('createDiscordSigner', () => {
  it('signs timestamp + body with a key whose raw public half it exposes as 64 hex characters', async () => {
    const signer = createDiscordSigner();
    expect(signer.publicKey).toMatch(/^[0-9a-f]{64}$/);
    const request = signer.request(buildPing(), { timestamp: 1_700_000_000 });
    const body = await request.text();
    const key = createPublicKey({
      key: Buffer.concat([SPKI_PREFIX, Buffer.from(signer.publicKey, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    const signature = Buffer.from(request.headers.get('x-signature-ed25519') ?? '', 'hex');
    expect(request.headers.get('x-signature-timestamp')).toBe('1700000000');
    expect(verify(null, Buffer.from(`1700000000${body}`), key, signature)).toBe(true);
    expect(verify(null, Buffer.from(`1700000001${body}`), key, signature)).toBe(false);
  });

  it('gives every signer its own key, sends raw strings as is and can send unsigned', async () => {
    expect(createDiscordSigner().publicKey).not.toBe(createDiscordSigner().publicKey);
    const request = createDiscordSigner().request('{"type":', { unsigned: true });
    expect(await request.text()).toBe('{"type":');
    expect(request.headers.get('x-signature-ed25519')).toBeNull();
    expect(request.method).toBe('POST');
  });
});
