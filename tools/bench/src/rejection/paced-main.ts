/**
 * A load generator process with its own pacing: argv[2] is JSON `PacedConfig`. Sends `count`
 * unique signed `app_mention` deliveries, each built, signed and serialised to one HTTP/1.1
 * request Buffer before the clock starts, over a pool of raw keep-alive `node:net` connections
 * (`raw-pool.ts`: at most one request in flight per connection, a minimal response reader), so
 * the client's own cost per request is a socket write and a few bytes parsed. (It replaced a
 * `node:http` Agent, whose per-request work on the client put the bare baseline server's p99 at
 * 58 ms at 5,000/s: the generator's limit, not the server's.) Either open-loop (delivery `i` is due
 * at `i / rate` seconds and sent then, whatever the answers so far, waiting for a free connection
 * if none is; its latency counts from when it was due, so a client or server falling behind shows
 * as latency, not as a lower rate) or closed-loop (`connections` senders, each sending its next
 * delivery when its previous one is answered: full speed). A latency ends when the first bytes of
 * the answer (its status line) arrive. The open-loop clock is `pacer.ts` (a sleeping ticker
 * thread, not a spin: the machine is shared); how late the generator itself sent each delivery is
 * reported (`lateP99Ms`) beside the latencies, with the generator's own CPU time. The result is
 * sent as `{ type: 'result', ...PacedResult }` over IPC, then the process exits.
 */
import { deliveryFactory } from '../ack/deliveries.js';
import { quantile } from '../report/stats.js';
import { nowMs } from './clock.js';
import { Pacer } from './pacer.js';
import { type RawOutcome, RawPool, serializeRequest } from './raw-pool.js';

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
  /** Open-loop: p99 of how late the generator sent a delivery after it was due (its own lag). */
  readonly lateP99Ms: number;
  /** The generator's CPU time (user + system) over the load, as a share of one core. */
  readonly cpuShare: number;
  /** Connections the server closed and the pool reopened (0 when every answer kept alive). */
  readonly reconnects: number;
  readonly errors: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as PacedConfig;
const url = new URL(config.url);
const next = deliveryFactory(config.run);
const requests = Array.from({ length: config.count }, (_, n) => {
  const delivery = next(n);
  return serializeRequest(url.host, url.pathname, delivery.headers, delivery.body);
});
const pool = new RawPool(Number(url.port), url.hostname, config.connections);
const latencies = new Map<number, number[]>();
const lateness: number[] = [];
let errors = 0;
let maxMs = 0;

/** Records an answer (or its failure) to a delivery due at `from`. */
function record(outcome: RawOutcome, from: number): void {
  if (outcome.error !== undefined) {
    errors += 1;
    return;
  }
  const ms = outcome.answeredAt - from;
  const list = latencies.get(outcome.status);
  if (list === undefined) latencies.set(outcome.status, [ms]);
  else list.push(ms);
  if (ms > maxMs) maxMs = ms;
}

/** Sends delivery `n`, due at `from`; resolves when it is answered or failed. */
function send(n: number, from: number): Promise<void> {
  return new Promise<void>((resolve) => {
    pool.send(requests[n]!, (outcome) => {
      record(outcome, from);
      resolve();
    });
  });
}

const pending: Promise<void>[] = [];
const pacer =
  config.mode === 'open'
    ? await Pacer.open(config.rate ?? 1000, config.count, (n, due) => {
        lateness.push(nowMs() - due);
        pending.push(send(n, due));
      })
    : undefined;
const cpuBefore = process.cpuUsage();
let started = nowMs();
let sendingEnded = started;
if (pacer !== undefined) {
  started = pacer.start();
  await pacer.finished;
  sendingEnded = nowMs();
  await Promise.all(pending);
} else {
  let n = 0;
  await Promise.all(
    Array.from({ length: config.connections }, async () => {
      for (let mine = n++; mine < config.count; mine = n++) await send(mine, nowMs());
    }),
  );
  sendingEnded = nowMs();
}
const seconds = (nowMs() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
pool.close();

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
  lateP99Ms: lateness.length === 0 ? 0 : quantile(lateness, 0.99),
  cpuShare: (cpu.user + cpu.system) / 1000 / Math.max(1, seconds * 1000),
  reconnects: pool.reconnects,
  errors,
};
process.send?.({ type: 'result', ...result }, () => process.exit(0));
