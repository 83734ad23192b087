import { closeHttpTransports, HTTP_TRANSPORTS } from '@rt/testing/adapter';
import { createDiscordSigner } from '@rt/testing/discord';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from './discord-adapter.js';

const base = { applicationId: '100000000000000001', token: 'test-token' };

it('the public key is optional for a bot that never serves HTTP interactions, whose handler and nodeListener then refuse to be used', () => {
  const adapter = createDiscordAdapter(base);
  expect(() => adapter.handler).toThrow(
    /publicKey is required to use the HTTP interactions handler/,
  );
  expect(() => adapter.nodeListener).toThrow(
    /publicKey is required to use the HTTP interactions nodeListener/,
  );
});

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('the public key', () => {
    it('gives a bot that has one a handler that verifies requests with it', async () => {
      const signer = createDiscordSigner();
      const adapter = createDiscordAdapter({ ...base, publicKey: signer.publicKey });
      const unsigned = new Request('http://127.0.0.1/interactions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"type":1}',
      });
      expect((await transport.serve(adapter)(unsigned)).status).toBe(401);
    });
  });
});
