import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** A web-standard HTTP handler, as HTTP adapters expose. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Adapts a web-standard handler to `node:http` (and Express, Fastify's raw mode, ...). The body is
 * streamed, not buffered, so the handler's own size limit applies. When the client goes away the
 * request's `signal` aborts. A handler that throws gets a bare 500; the error is passed to
 * `onError` (default: ignored) and never crashes the process.
 */
export function toNodeListener(
  handler: FetchHandler,
  options: { onError?: (error: unknown) => void } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void serve(handler, req, res, options.onError);
  };
}

async function serve(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  onError: ((error: unknown) => void) | undefined,
): Promise<void> {
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) controller.abort();
  };
  res.once('close', onClose);
  try {
    const response = await handler(toRequest(req, controller.signal));
    res.statusCode = response.status;
    response.headers.forEach((value, key) => {
      res.setHeader(key, value);
    });
    if (response.body === null) {
      res.end();
      return;
    }
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    try {
      onError?.(error);
    } catch {
      // contained
    }
    if (!res.headersSent) {
      res.statusCode = 500;
      res.end();
    } else {
      res.destroy();
    }
  } finally {
    res.off('close', onClose);
  }
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = req.headers.host ?? 'localhost';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody
      ? { body: Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>, duplex: 'half' }
      : {}),
  } as RequestInit);
}
