import { PayloadTooLargeError } from '../errors.js';

/** Default request body limit for HTTP adapters: 1 MiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** What reading a request body up to a limit produced. */
export type BodyRead =
  | { readonly type: 'body'; readonly text: string }
  /** The declared `content-length` or the bytes streamed so far passed the limit. */
  | { readonly type: 'too-large' }
  /** The body stream failed (the client went away mid-body, ...). */
  | { readonly type: 'unreadable'; readonly error: unknown };

/**
 * Reads `request`'s body as UTF-8 text, at most `limitBytes`. Stops as soon as the declared
 * `content-length` or the bytes streamed so far pass the limit: nothing more is read, and the
 * stream is released but not cancelled, so the caller decides whether to discard the rest
 * (`discardBody`) or leave it to the server. Invalid UTF-8 is replaced. Never rejects.
 */
export async function readBodyUpTo(request: Request, limitBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) return { type: 'too-large' };
  if (request.body === null) return { type: 'body', text: '' };
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch (error) {
    return { type: 'unreadable', error };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) return { type: 'too-large' };
      chunks.push(value);
    }
  } catch (error) {
    return { type: 'unreadable', error };
  } finally {
    reader.releaseLock();
  }
  return { type: 'body', text: Buffer.concat(chunks, total).toString('utf8') };
}

/**
 * Reads and throws away what is left of `request`'s body, at most `maxBytes` of it (counting the
 * declared length when there is one), then cancels the stream. Started after an early answer
 * (413) so the client, still sending, gets to read that answer instead of a reset connection; the
 * cap keeps an endless sender from being read forever. Starts on a later tick, after the answer
 * was handed back. Never rejects.
 */
export function discardBody(request: Request, maxBytes: number): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    const declared = Number(request.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) return;
    const body = request.body;
    if (body === null || body.locked) return;
    const reader = body.getReader();
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        total += value.byteLength;
        if (total > maxBytes) {
          await reader.cancel().catch(() => {});
          return;
        }
      }
    } catch {
      // The client went away: nothing left to discard.
    } finally {
      reader.releaseLock();
    }
  });
}

/**
 * Reads `request`'s body as UTF-8 text, refusing more than `limitBytes`. Throws
 * `PayloadTooLargeError` as soon as the declared `content-length` or the bytes streamed so far
 * exceed the limit (the rest is not read: the stream is cancelled), and rethrows a failing
 * stream's error. Invalid UTF-8 is replaced, not thrown.
 */
export async function readBodyWithLimit(
  request: Request,
  limitBytes: number = DEFAULT_BODY_LIMIT_BYTES,
): Promise<string> {
  const read = await readBodyUpTo(request, limitBytes);
  if (read.type === 'body') return read.text;
  if (read.type === 'too-large') {
    await request.body?.cancel().catch(() => {});
    throw new PayloadTooLargeError(limitBytes);
  }
  throw read.error;
}
