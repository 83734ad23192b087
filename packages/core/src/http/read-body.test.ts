import { describe, expect, it } from 'vitest';
import { discardBody, readBodyUpTo, readBodyWithLimit } from './read-body.js';

/** A streamed request whose body is `chunks` (no content-length), counting what was pulled. */
function streamed(chunks: Uint8Array[]): { request: Request; pulled: () => number } {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next && !cancelled) {
        pulled += next.byteLength;
        controller.enqueue(next);
      } else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  const request = new Request('http://x', { method: 'POST', body, duplex: 'half' } as RequestInit);
  return { request, pulled: () => pulled };
}

describe('readBodyUpTo', () => {
  it('reads a body within the limit as text', async () => {
    const request = new Request('http://x', { method: 'POST', body: 'héllo' });
    await expect(readBodyUpTo(request, 10)).resolves.toEqual({ type: 'body', text: 'héllo' });
  });

  it('stops at the limit and leaves the stream unlocked for the caller', async () => {
    const { request, pulled } = streamed(Array.from({ length: 10 }, () => new Uint8Array(6)));
    await expect(readBodyUpTo(request, 10)).resolves.toEqual({ type: 'too-large' });
    // 12 bytes read, at most one more chunk pulled ahead by the stream; never the whole 60.
    expect(pulled()).toBeLessThanOrEqual(18);
    expect(request.body?.locked).toBe(false);
  });

  it('reports a failing stream as unreadable with its error, never rejecting', async () => {
    const boom = new Error('client went away');
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(boom);
      },
    });
    const request = new Request('http://x', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    await expect(readBodyUpTo(request, 10)).resolves.toEqual({ type: 'unreadable', error: boom });
    const again = new Request('http://x', {
      method: 'POST',
      body: new ReadableStream({ pull: (c) => c.error(boom) }),
      duplex: 'half',
    } as RequestInit);
    await expect(readBodyWithLimit(again, 10)).rejects.toBe(boom);
  });
});

describe('discardBody', () => {
  it('reads the rest of a refused body so the client can read the answer', async () => {
    const { request, pulled } = streamed(Array.from({ length: 10 }, () => new Uint8Array(6)));
    await readBodyUpTo(request, 10);
    await discardBody(request, 1_000);
    expect(pulled()).toBe(60);
  });

  it('cancels the stream once the discard cap is passed', async () => {
    const { request, pulled } = streamed(Array.from({ length: 100 }, () => new Uint8Array(6)));
    await readBodyUpTo(request, 10);
    await discardBody(request, 30);
    // 600 bytes offered: about 12 read + 30 discarded + the stream's read-ahead, not all of them.
    expect(pulled()).toBeLessThan(120);
  });

  it('reads nothing when the declared length is over the cap', async () => {
    const request = new Request('http://x', {
      method: 'POST',
      body: 'x'.repeat(100),
      headers: { 'content-length': '100' },
    });
    await discardBody(request, 50);
    expect(request.bodyUsed).toBe(false);
  });
});
