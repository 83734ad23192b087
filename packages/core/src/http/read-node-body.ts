import type { IncomingMessage } from 'node:http';
import type { BodyRead } from './read-body.js';

/**
 * Reads a `node:http` request's body into one Buffer and then UTF-8 text, at most `limitBytes`:
 * the native counterpart of `readBodyUpTo`, without web streams. A declared `content-length`
 * above the limit answers `too-large` before anything is read; bytes streamed past the limit stop
 * the collection at once (`too-large`) and leave the rest unread and the stream paused, so the
 * caller decides whether to discard it (`discardNodeBody`). A request that errors or is aborted
 * mid-body is `unreadable`. Invalid UTF-8 is replaced. Never rejects; removes its listeners.
 */
export function readNodeBody(req: IncomingMessage, limitBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    return Promise.resolve({ type: 'too-large' });
  }
  if (req.readableEnded) return Promise.resolve({ type: 'body', text: '' });
  return new Promise<BodyRead>((resolve) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let total = 0;
    const finish = (read: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limitBytes) {
        req.pause();
        finish({ type: 'too-large' });
        return;
      }
      if (first === undefined) first = chunk;
      else if (chunks === undefined) chunks = [first, chunk];
      else chunks.push(chunk);
    };
    const onEnd = () => {
      const body = chunks === undefined ? first : Buffer.concat(chunks, total);
      finish({ type: 'body', text: body === undefined ? '' : body.toString('utf8') });
    };
    const onError = (error: unknown) => finish({ type: 'unreadable', error });
    const onAborted = () =>
      finish({ type: 'unreadable', error: new Error('request aborted mid-body') });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/**
 * Reads and throws away what is left of `req`'s body, at most `maxBytes` of it; past that the
 * request is destroyed. A declared `content-length` above `maxBytes` is not read at all (the rest
 * is left to the server). Started after an early answer (413) so a client still sending gets to
 * read the answer instead of a reset connection; it starts on a later tick, after the answer was
 * handed back. Never throws; removes its listeners.
 */
export function discardNodeBody(req: IncomingMessage, maxBytes: number): void {
  setImmediate(() => {
    const declared = Number(req.headers['content-length']);
    if (req.readableEnded || req.destroyed) return;
    if (Number.isFinite(declared) && declared > maxBytes) return;
    let total = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', cleanup);
      req.off('error', cleanup);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        cleanup();
        req.destroy();
      }
    };
    req.on('data', onData);
    req.on('end', cleanup);
    req.on('error', cleanup);
    req.resume();
  });
}
