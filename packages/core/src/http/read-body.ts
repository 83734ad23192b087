import { PayloadTooLargeError } from '../errors.js';

/** Default request body limit for HTTP adapters: 1 MiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads `request`'s body as UTF-8 text, refusing more than `limitBytes`. Throws
 * `PayloadTooLargeError` as soon as the declared `content-length` or the bytes streamed so far
 * exceed the limit (the rest is not read). Invalid UTF-8 is replaced, not thrown.
 */
export async function readBodyWithLimit(
  request: Request,
  limitBytes: number = DEFAULT_BODY_LIMIT_BYTES,
): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes)
    throw new PayloadTooLargeError(limitBytes);
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) {
        await reader.cancel().catch(() => {});
        throw new PayloadTooLargeError(limitBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
