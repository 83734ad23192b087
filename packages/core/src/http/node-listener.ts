import type { IncomingMessage, ServerResponse } from 'node:http';
import { lazyRequest } from './lazy-request.js';
import type { FetchHandler } from './web-shell.js';

export type { FetchHandler } from './web-shell.js';

/**
 * Adapts a third-party web-standard handler to `node:http` (and Express, Fastify's raw mode, ...);
 * rt's own adapters have a native `nodeListener`, faster. The web `Request` is built lazily
 * (`method`, `url` and `headers` come from the `IncomingMessage`; the real `Request` only when
 * the body or anything else is used). The body is streamed, not buffered, so the handler's own
 * size limit applies. When the client goes away the request's `signal` aborts. A
 * handler that throws gets a bare 500; the error is passed to `onError` (default: ignored) and never crashes the process.
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
  try {
    const response = await handler(lazyRequest(req, res));
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
  }
}
