/**
 * A load generator process with its own pacing: argv[2] is JSON `PacedConfig`. Sends `count`
 * unique signed `app_mention` deliveries (built and signed before the clock starts) over a pool of
 * keep-alive connections (a `node:http` Agent: undici's Pool, tried first, fell behind a 500/s
 * open-loop load that this client keeps up with), either open-loop (delivery `i` is due at `i / rate` seconds,
 * sent then whatever the answers so far; its latency counts from when it was due, so a client or
 * server falling behind shows as latency, not as a lower rate) or closed-loop (`connections`
 * senders, each sending its next delivery when its previous one is answered: full speed). The
 * result is sent as `{ type: 'result', ...PacedResult }` over IPC, then the process exits.
 */
import { Agent, request } from 'node:http';
import { deliveryFactory } from '../ack/deliveries.js';
import { quantile } from '../report/stats.js';

/** What to send, and how. */
export interface PacedConfig {
  readonly url: string;
  readonly mode: 'open' | 'closed';
  readonly count: number;
  /** Connections in the pool (closed: also the senders, one delivery in flight each). */
  readonly connections: number;
  /** Open-loop: deliveries offered per second. */
  readonly rate?: number;
  /** Digits: keeps event ids of different runs against one server apart. */
  readonly run: string;
}

/** What the answers were. Latencies in milliseconds. */
export interface PacedResult {
  readonly sent: number;
  readonly seconds: number;
  /** Deliveries sent per second, as achieved (closed-loop: answered per second). */
  readonly sentPerSecond: number;
  readonly byStatus: Record<string, number>;
  readonly p50ByStatusMs: Record<string, number>;
  readonly p99ByStatusMs: Record<string, number>;
  readonly maxMs: number;
  readonly errors: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as PacedConfig;
const url = new URL(config.url);
const next = deliveryFactory(config.run);
const deliveries = Array.from({ length: config.count }, (_, n) => next(n));
const agent = new Agent({ keepAlive: true, maxSockets: config.connections });
const latencies = new Map<number, number[]>();
let errors = 0;
let maxMs = 0;

/** Sends delivery `n` and records its status and latency (to its response head) counted from `from`. */
function send(n: number, from: number): Promise<void> {
  const delivery = deliveries[n]!;
  return new Promise<void>((resolve) => {
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...delivery.headers, 'content-length': Buffer.byteLength(delivery.body) },
        timeout: 30_000,
      },
      (response) => {
        const ms = performance.now() - from;
        const status = response.statusCode ?? 0;
        const list = latencies.get(status);
        if (list === undefined) latencies.set(status, [ms]);
        else list.push(ms);
        if (ms > maxMs) maxMs = ms;
        response.resume();
        response.once('end', resolve);
        response.once('error', () => resolve());
      },
    );
    outgoing.once('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.once('error', () => {
      errors += 1;
      resolve();
    });
    outgoing.end(delivery.body);
  });
}

const started = performance.now();
let sendingEnded = started;
if (config.mode === 'open') {
  const rate = config.rate ?? 1000;
  const pending: Promise<void>[] = [];
  let n = 0;
  while (n < config.count) {
    const now = performance.now();
    for (let due = started + (n * 1000) / rate; n < config.count && due <= now; ) {
      pending.push(send(n, due));
      n += 1;
      due = started + (n * 1000) / rate;
    }
    // A 1 ms timer, not a spin: the machine is shared. Timer lateness counts as latency.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  sendingEnded = performance.now();
  await Promise.all(pending);
} else {
  let n = 0;
  await Promise.all(
    Array.from({ length: config.connections }, async () => {
      for (let mine = n++; mine < config.count; mine = n++) await send(mine, performance.now());
    }),
  );
  sendingEnded = performance.now();
}
const seconds = (performance.now() - started) / 1000;
agent.destroy();

const byStatus: Record<string, number> = {};
const p50ByStatusMs: Record<string, number> = {};
const p99ByStatusMs: Record<string, number> = {};
for (const [status, list] of latencies) {
  byStatus[status] = list.length;
  p50ByStatusMs[status] = quantile(list, 0.5);
  p99ByStatusMs[status] = quantile(list, 0.99);
}
const result: PacedResult = {
  sent: config.count,
  seconds,
  sentPerSecond: config.count / Math.max(0.001, (sendingEnded - started) / 1000),
  byStatus,
  p50ByStatusMs,
  p99ByStatusMs,
  maxMs,
  errors,
};
process.send?.({ type: 'result', ...result }, () => process.exit(0));
