import { createDiscordSigner } from '@rt/testing/discord';
import { describe, expect, it } from 'vitest';
import { createDiscordAdapter } from './discord-adapter.js';

const base = { applicationId: '100000000000000001', token: 'test-token' };

describe('the public key', () => {
  it('is optional for a bot that never serves HTTP interactions, whose handler then refuses to be used', () => {
    const adapter = createDiscordAdapter(base);
    expect(() => adapter.handler).toThrow(
      /publicKey is required to use the HTTP interactions handler/,
    );
  });

  it('gives a bot that has one a handler that verifies requests with it', async () => {
    const signer = createDiscordSigner();
    const adapter = createDiscordAdapter({ ...base, publicKey: signer.publicKey });
    const unsigned = new Request('http://127.0.0.1/interactions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"type":1}',
    });
    expect((await adapter.handler(unsigned)).status).toBe(401);
  });
});
