import { createPublicKey, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildChatInputCommand, createDiscordSigner } from '@rt/testing/discord';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DISCORD_ACK_TIMEOUT_MS, InteractionClient } from './interaction-client.js';

/** A clock that reads 0 when the request starts and `endMs` every time after. */
function clockEndingAt(endMs: number): () => number {
  let reads = 0;
  return () => (reads++ === 0 ? 0 : endMs);
}

const signer = createDiscordSigner();
const publicKey = createPublicKey({
  key: Buffer.concat([
    Buffer.from('302a300506032b6570032100', 'hex'),
    Buffer.from(signer.publicKey, 'hex'),
  ]),
  format: 'der',
  type: 'spki',
});

describe('InteractionClient', () => {
  let server: Server;
  let url: string;
  const verified: boolean[] = [];

  beforeEach(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const message = Buffer.from(
          `${req.headers['x-signature-timestamp']}${Buffer.concat(chunks)}`,
        );
        const signature = Buffer.from(String(req.headers['x-signature-ed25519']), 'hex');
        verified.push(verify(null, message, publicKey, signature));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 4, data: { flags: 64, content: 'busy' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/discord/interactions`;
  });
  afterEach(async () => {
    verified.length = 0;
    await new Promise((resolve) => server.close(resolve));
  });

  it('signs each interaction as Discord does and reads the interaction response', async () => {
    const client = new InteractionClient(url, signer, clockEndingAt(DISCORD_ACK_TIMEOUT_MS));
    const result = await client.deliver(buildChatInputCommand({ name: 'ask' }));
    expect(verified).toEqual([true]);
    expect(result).toEqual({
      kind: 'response',
      status: 200,
      latencyMs: 3000,
      answer: { type: 4, flags: 64, content: 'busy', choices: [] },
    });
  });

  it('counts a complete answer read after 3 s as a timeout, as Discord would', async () => {
    const client = new InteractionClient(url, signer, clockEndingAt(DISCORD_ACK_TIMEOUT_MS + 1));
    const result = await client.deliver(buildChatInputCommand({ name: 'ask' }));
    expect(result).toEqual({ kind: 'timeout', latencyMs: 3001 });
  });

  it('reports a refused connection as connection_failed, never throwing', async () => {
    await new Promise((resolve) => server.close(resolve));
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const result = await new InteractionClient(url, signer).deliver(buildChatInputCommand());
    expect(result.kind).toBe('connection_failed');
  });
});
