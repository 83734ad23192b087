import { createServer, type Server, Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TurnCork } from './turn-cork.js';

/** The real `setImmediate`, read before any test fakes timers. */
const immediate = setImmediate;
const endOfTurn = () => new Promise<void>((resolve) => immediate(resolve));

/** A loopback TCP pair: the client socket, and the chunks the server read from it. */
async function pair(): Promise<{ socket: Socket; chunks: Buffer[]; server: Server }> {
  const chunks: Buffer[] = [];
  const server = createServer((peer) => peer.on('data', (chunk: Buffer) => chunks.push(chunk)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const socket = new Socket();
  await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
  return { socket, chunks, server };
}

async function received(chunks: Buffer[], bytes: number): Promise<void> {
  while (chunks.reduce((sum, chunk) => sum + chunk.length, 0) < bytes) await endOfTurn();
}

describe('TurnCork', () => {
  let opened: { socket: Socket; server: Server } | undefined;
  /** A loopback pair closed after the test: its client socket, and what the server read. */
  async function open(): Promise<{ socket: Socket; chunks: Buffer[] }> {
    const { socket, chunks, server } = await pair();
    opened = { socket, server };
    return { socket, chunks };
  }
  afterEach(async () => {
    vi.useRealTimers();
    opened?.socket.destroy();
    await new Promise((resolve) => opened?.server.close(resolve));
    opened = undefined;
  });

  it('holds the writes of one turn back and lets them leave together when it ends', async () => {
    const { socket, chunks } = await open();
    const cork = new TurnCork();
    const frames = ['{"envelope_id":"1"}', '{"envelope_id":"2"}', '{"envelope_id":"3"}'];
    for (const frame of frames) {
      cork.hold(socket);
      socket.write(frame);
    }
    // Corked once, however often it was held: every frame waits in the socket's buffer.
    expect(socket.writableCorked).toBe(1);
    expect(socket.writableLength).toBe(frames.join('').length);
    await endOfTurn();
    expect(socket.writableCorked).toBe(0);
    await received(chunks, frames.join('').length);
    expect(chunks.map(String)).toEqual([frames.join('')]);
  });

  it('corks again on the next turn', async () => {
    const { socket } = await open();
    const cork = new TurnCork();
    cork.hold(socket);
    await endOfTurn();
    cork.hold(socket);
    expect(socket.writableCorked).toBe(1);
    await endOfTurn();
    expect(socket.writableCorked).toBe(0);
  });

  it('ends the turn with fake timers installed: what it holds is I/O, never held by fake time', async () => {
    const { socket } = await open();
    vi.useFakeTimers();
    const cork = new TurnCork();
    cork.hold(socket);
    socket.write('ack');
    await endOfTurn();
    expect(socket.writableCorked).toBe(0);
  });

  it('leaves a destroyed socket, or none, alone', async () => {
    const { socket } = await open();
    socket.destroy();
    const cork = new TurnCork();
    cork.hold(socket);
    cork.hold(undefined);
    expect(socket.writableCorked).toBe(0);
    await endOfTurn();
    expect(socket.writableCorked).toBe(0);
  });

  it('lets what it holds leave at once on flush, and takes back only the cork it added', async () => {
    const { socket } = await open();
    socket.cork(); // someone else's cork
    const cork = new TurnCork();
    cork.hold(socket);
    expect(socket.writableCorked).toBe(2);
    cork.flush();
    expect(socket.writableCorked).toBe(1);
    await endOfTurn();
    expect(socket.writableCorked).toBe(1);
    socket.uncork();
  });
});
