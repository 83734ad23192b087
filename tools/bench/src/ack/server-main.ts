/**
 * A benchmark server process. argv[2] is JSON `ServerConfig`. It listens on 127.0.0.1 port 0 and
 * sends `{ type: 'ready', port }`; `{ type: 'memory' }` is answered with the heap after a GC,
 * `{ type: 'snapshot' }` with the path of a heap snapshot written in the working directory;
 * `{ type: 'stop' }` shuts it down.
 */
import { createServer, type RequestListener } from 'node:http';
import { createSlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { serveParent } from '../proc/child.js';
import { baselineListener } from './baseline.js';
import { BENCH_SECRET } from './deliveries.js';

/** Which server to run and how. */
export interface ServerConfig {
  /** `baseline` verify-parse-200; rt's Slack adapter on its `native` listener or `web` handler. */
  readonly kind: 'baseline' | 'native' | 'web';
  /** rt: the admission bound. */
  readonly maxDetached?: number;
  /** How long each handler runs (rt) or each payload is held (baseline); 0 = no-op. */
  readonly handlerMs: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ServerConfig;
let runtime: Runtime | undefined;
let listener: RequestListener;
const held = new Set<unknown>();

if (config.kind === 'baseline') {
  listener = baselineListener(
    BENCH_SECRET,
    config.handlerMs > 0 ? { holdMs: config.handlerMs, held } : undefined,
  );
} else {
  const adapter = createSlackAdapter({ signingSecret: BENCH_SECRET, botToken: 'xoxb-bench' });
  const state = createMemoryState();
  runtime = createRuntime({
    state,
    adapters: [adapter],
    ...(config.maxDetached === undefined ? {} : { maxDetached: config.maxDetached }),
  });
  const handlerMs = config.handlerMs;
  runtime.onMention(
    handlerMs > 0
      ? (ctx) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, handlerMs);
            ctx.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              resolve();
            });
          })
      : () => {},
  );
  listener =
    config.kind === 'native'
      ? adapter.nodeListener
      : (await import('@rt/core')).toNodeListener(adapter.handler);
}

const server = createServer({ keepAliveTimeout: 60_000 }, listener);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ type: 'ready', port: typeof address === 'object' ? address?.port : 0 });
});

serveParent({
  /** Writes a heap snapshot (for finding what a delivery retains); replies with its path. */
  snapshot: async () => {
    (globalThis as { gc?: () => void }).gc?.();
    const { writeHeapSnapshot } = await import('node:v8');
    return { type: 'snapshot', path: writeHeapSnapshot() };
  },
  memory: () => {
    (globalThis as { gc?: () => void }).gc?.();
    const usage = process.memoryUsage();
    return {
      type: 'memory',
      heapUsed: usage.heapUsed,
      rss: usage.rss,
      inFlight: runtime?.stats().detachedInFlight ?? held.size,
      accepted: runtime?.stats().accepted ?? held.size,
    };
  },
  stop: async () => {
    server.closeAllConnections();
    server.close();
    await runtime?.shutdown({ graceMs: 0 });
    process.exit(0);
  },
});
