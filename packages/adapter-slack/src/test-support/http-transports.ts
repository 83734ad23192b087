import { createServer, type Server } from 'node:http';
import type { SlackAdapter } from '../slack-adapter.js';

/** One way to serve the adapter over HTTP, as a test sees it: a web `Request` in, a `Response` out. */
export interface HttpTransport {
  readonly name: string;
  serve(adapter: SlackAdapter): (request: Request) => Promise<Response>;
}

const servers = new Map<SlackAdapter, Promise<{ server: Server; base: string }>>();

function listen(adapter: SlackAdapter): Promise<{ server: Server; base: string }> {
  let started = servers.get(adapter);
  if (started === undefined) {
    started = new Promise((resolve, reject) => {
      const server = createServer(adapter.nodeListener);
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const port = typeof address === 'object' && address !== null ? address.port : 0;
        resolve({ server, base: `http://127.0.0.1:${port}` });
      });
    });
    servers.set(adapter, started);
  }
  return started;
}

/**
 * The adapter's two HTTP transports: the web-standard `handler` called directly, and the native
 * `nodeListener` behind a real `node:http` server on 127.0.0.1 (port 0), reached with `fetch`
 * (the body sent buffered, with its `content-length`). Call `closeNativeServers` after the tests.
 */
export const HTTP_TRANSPORTS: readonly HttpTransport[] = [
  { name: 'web handler', serve: (adapter) => adapter.handler },
  {
    name: 'native node:http listener',
    serve: (adapter) => async (request) => {
      const { base } = await listen(adapter);
      const url = new URL(request.url);
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      return fetch(`${base}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        ...(hasBody ? { body: await request.arrayBuffer() } : {}),
      });
    },
  },
];

/** Closes the servers `HTTP_TRANSPORTS` started. */
export async function closeNativeServers(): Promise<void> {
  const all = [...servers.values()];
  servers.clear();
  await Promise.all(
    all.map(async (started) => {
      const { server } = await started;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  );
}
