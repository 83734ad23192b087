/**
 * A benchmark server process. argv[2] is JSON `ServerConfig`. It listens on 127.0.0.1 port 0 and
 * sends `{ type: 'ready', port }`; `{ type: 'memory' }` is answered with the heap after a GC,
 * `{ type: 'snapshot' }` with the path of a heap snapshot written in the working directory;
 * `{ type: 'stop' }` shuts it down.
 */
import { createServer, type RequestListener } from 'node:http';
import { createDiscordAdapter } from '@rt/adapter-discord';
import { createSlackAdapter } from '@rt/adapter-slack';
import { type Adapter, createRuntime, type Runtime, toNodeListener } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { serveParent } from '../proc/child.js';
import { baselineListener } from './baseline.js';
import { BENCH_SECRET } from './deliveries.js';
import { discordBaselineListener } from './discord-baseline.js';
import { BENCH_DISCORD_APPLICATION_ID, BENCH_DISCORD_PUBLIC_KEY } from './discord-deliveries.js';

/** Which server to run and how. */
export interface ServerConfig {
  /** `baseline` verify-parse-200; rt's adapter on its `native` listener or `web` handler. */
  readonly kind: 'baseline' | 'native' | 'web';
  /** Which platform's endpoint (default `slack`): the adapter, and the baseline's verification. */
  readonly platform?: 'slack' | 'discord';
  /** rt: the admission bound. */
  readonly maxDetached?: number;
  /** How long each handler runs (rt) or each payload is held (baseline); 0 = no-op. */
  readonly handlerMs: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ServerConfig;
let runtime: Runtime | undefined;
let listener: RequestListener;
const held = new Set<unknown>();

/** rt's adapter of the configured platform, with its two HTTP shells. */
function rtAdapter(): Adapter & {
  readonly nodeListener: RequestListener;
  readonly handler: (request: Request) => Promise<Response>;
} {
  if (config.platform === 'discord') {
    return createDiscordAdapter({
      publicKey: BENCH_DISCORD_PUBLIC_KEY,
      applicationId: BENCH_DISCORD_APPLICATION_ID,
      token: 'discord-bench-token',
      // Never reached (the handler answers nothing), but never the real API either.
      apiUrl: 'http://127.0.0.1:9',
    });
  }
  return createSlackAdapter({ signingSecret: BENCH_SECRET, botToken: 'xoxb-bench' });
}

if (config.kind === 'baseline') {
  listener =
    config.platform === 'discord'
      ? discordBaselineListener()
      : baselineListener(
          BENCH_SECRET,
          config.handlerMs > 0 ? { holdMs: config.handlerMs, held } : undefined,
        );
} else {
  const adapter = rtAdapter();
  const state = createMemoryState();
  runtime = createRuntime({
    state,
    adapters: [adapter],
    ...(config.maxDetached === undefined ? {} : { maxDetached: config.maxDetached }),
  });
  const handlerMs = config.handlerMs;
  const handler =
    handlerMs > 0
      ? (ctx: { readonly signal: AbortSignal }) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, handlerMs);
            ctx.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              resolve();
            });
          })
      : () => {};
  if (config.platform === 'discord') runtime.onAction('approve', handler);
  else runtime.onMention(handler);
  listener = config.kind === 'native' ? adapter.nodeListener : toNodeListener(adapter.handler);
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
