import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What an HTTP adapter serves: its web-standard `handler` and its native `nodeListener`. */
export interface HttpShells {
  readonly handler: (request: Request) => Promise<Response>;
  readonly nodeListener: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * One way to serve an adapter over HTTP, as a test sees it: a web `Request` in, a `Response` out,
 * so one test body runs over every shell (`describe.each(HTTP_TRANSPORTS)`).
 */
export interface HttpTransport {
  readonly name: string;
  serve(target: HttpShells): (request: Request) => Promise<Response>;
}

const servers = new Map<HttpShells['nodeListener'], Promise<{ server: Server; origin: string }>>();

function listen(listener: HttpShells['nodeListener']): Promise<{ server: Server; origin: string }> {
  let started = servers.get(listener);
  if (started === undefined) {
    started = new Promise((resolve, reject) => {
      const server = createServer(listener);
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        resolve({ server, origin: `http://127.0.0.1:${port}` });
      });
    });
    servers.set(listener, started);
  }
  return started;
}

/**
 * An adapter's two HTTP shells: the web-standard `handler` called directly, and the native
 * `nodeListener` behind a real `node:http` server on 127.0.0.1 (port 0, one per listener, started
 * on first use), reached with `fetch` (the body sent buffered, with its `content-length`). Call
 * `closeHttpTransports` after the tests (`afterAll`).
 */
export const HTTP_TRANSPORTS: readonly HttpTransport[] = Object.freeze([
  { name: 'web handler', serve: (target: HttpShells) => target.handler },
  {
    name: 'native node:http listener',
    serve: (target: HttpShells) => async (request: Request) => {
      const { origin } = await listen(target.nodeListener);
      const url = new URL(request.url);
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      return fetch(`${origin}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        ...(hasBody ? { body: await request.arrayBuffer() } : {}),
      });
    },
  },
]);

/**
 * Closes the servers `HTTP_TRANSPORTS` started (only `target`'s when given), dropping their open
 * connections.
 */
export async function closeHttpTransports(target?: HttpShells): Promise<void> {
  const all: Promise<{ server: Server; origin: string }>[] = [];
  for (const [listener, started] of servers) {
    if (target !== undefined && target.nodeListener !== listener) continue;
    servers.delete(listener);
    all.push(started);
  }
  await Promise.all(
    all.map(async (started) => {
      const { server } = await started;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  );
}
