import type { IncomingMessage } from 'node:http';
import type { BodyRead } from './read-body.js';

/** The collection state of one `readNodeBody`, kept on the request under `READ`. */
interface BodyCollector {
  readonly limitBytes: number;
  readonly resolve: (read: BodyRead) => void;
  first: Buffer | undefined;
  chunks: Buffer[] | undefined;
  total: number;
}

const READ = Symbol('rt.readNodeBody');
type CollectedRequest = IncomingMessage & { [READ]?: BodyCollector };

/** Ends a collection: the listeners are removed before the read is handed back. */
function finish(req: CollectedRequest, read: BodyRead): void {
  const collector = req[READ];
  if (collector === undefined) return;
  req[READ] = undefined;
  req.off('data', onData);
  req.off('end', onEnd);
  req.off('error', onError);
  req.off('aborted', onAborted);
  collector.resolve(read);
}

// The listeners are shared by every request (`this` is the request), so a body read builds no
// closure per request.
function onData(this: CollectedRequest, chunk: Buffer): void {
  const collector = this[READ];
  if (collector === undefined) return;
  collector.total += chunk.length;
  if (collector.total > collector.limitBytes) {
    this.pause();
    finish(this, { type: 'too-large' });
    return;
  }
  if (collector.first === undefined) collector.first = chunk;
  else if (collector.chunks === undefined) collector.chunks = [collector.first, chunk];
  else collector.chunks.push(chunk);
}

function onEnd(this: CollectedRequest): void {
  const collector = this[READ];
  if (collector === undefined) return;
  const body =
    collector.chunks === undefined
      ? collector.first
      : Buffer.concat(collector.chunks, collector.total);
  finish(this, { type: 'body', text: body === undefined ? '' : body.toString('utf8') });
}

function onError(this: CollectedRequest, error: unknown): void {
  finish(this, { type: 'unreadable', error });
}

function onAborted(this: CollectedRequest): void {
  finish(this, { type: 'unreadable', error: new Error('request aborted mid-body') });
}

/**
 * Reads a `node:http` request's body into one Buffer and then UTF-8 text, at most `limitBytes`:
 * the native counterpart of `readBodyUpTo`, without web streams. A declared `content-length`
 * above the limit answers `too-large` before anything is read; bytes streamed past the limit stop
 * the collection at once (`too-large`) and leave the rest unread and the stream paused, so the
 * caller decides whether to discard it (`discardNodeBody`). A request that errors or is aborted
 * mid-body is `unreadable`. Invalid UTF-8 is replaced. Never rejects; removes its listeners (one
 * set shared by every request, so no closure is built per body). One read per request at a time.
 */
export function readNodeBody(req: IncomingMessage, limitBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    return Promise.resolve({ type: 'too-large' });
  }
  if (req.readableEnded) return Promise.resolve({ type: 'body', text: '' });
  return new Promise<BodyRead>((resolve) => {
    (req as CollectedRequest)[READ] = {
      limitBytes,
      resolve,
      first: undefined,
      chunks: undefined,
      total: 0,
    };
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
