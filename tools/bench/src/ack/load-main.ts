/**
 * The load generator process: autocannon sending unique signed deliveries (Slack `app_mention`
 * events, or Discord button interactions with `platform: 'discord'`) over
 * keep-alive connections. argv[2] is JSON `LoadConfig`; the result is sent as
 * `{ type: 'result', ...LoadResult }` over IPC, then the process exits.
 */
import autocannon from 'autocannon';
import { quantile } from '../report/stats.js';
import { deliveryFactory } from './deliveries.js';
import { discordDeliveryFactory } from './discord-deliveries.js';

/** What to send. Exactly one of `durationS` and `amount`. */
export interface LoadConfig {
  readonly url: string;
  readonly connections: number;
  readonly durationS?: number;
  readonly amount?: number;
  /** Seconds of unmeasured load first (its deliveries are unique too). */
  readonly warmupS?: number;
  /** Digits: keeps event ids of different runs against one server apart. */
  readonly run: string;
  /** Whose deliveries: Slack `app_mention` events (default) or Discord button interactions. */
  readonly platform?: 'slack' | 'discord';
}

/** What one measured load produced. */
export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Responses by status code. */
  readonly byStatus: Record<string, number>;
  /** p99 latency of responses by status code, ms. */
  readonly p99ByStatusMs: Record<string, number>;
  readonly errors: number;
  readonly timeouts: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as LoadConfig;

async function fire(options: { durationS?: number; amount?: number; run: string }) {
  const next =
    config.platform === 'discord'
      ? discordDeliveryFactory(options.run)
      : deliveryFactory(options.run);
  let n = 0;
  const latencies = new Map<number, number[]>();
  const instance = autocannon({
    url: config.url,
    connections: config.connections,
    pipelining: 1,
    timeout: 30,
    ...(options.amount === undefined
      ? { duration: options.durationS ?? 1 }
      : { amount: options.amount }),
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const delivery = next(n++);
          return { ...request, body: delivery.body, headers: delivery.headers };
        },
      },
    ],
  }) as unknown as autocannon.Instance;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    const list = latencies.get(status);
    if (list === undefined) latencies.set(status, [ms]);
    else list.push(ms);
  });
  const started = performance.now();
  const result = await (instance as unknown as Promise<autocannon.Result>);
  const seconds = (performance.now() - started) / 1000;
  return { result, latencies, seconds };
}

if (config.warmupS !== undefined && config.warmupS > 0) {
  await fire({ durationS: config.warmupS, run: `9${config.run}` });
}
const { result, latencies, seconds } = await fire({
  ...(config.amount === undefined
    ? { durationS: config.durationS ?? 5 }
    : { amount: config.amount }),
  run: config.run,
});
const all: number[] = [];
const byStatus: Record<string, number> = {};
const p99ByStatusMs: Record<string, number> = {};
for (const [status, list] of latencies) {
  byStatus[status] = list.length;
  p99ByStatusMs[status] = quantile(list, 0.99);
  for (const ms of list) all.push(ms);
}
const requests = all.length;
const measured: LoadResult = {
  requests,
  seconds: config.amount === undefined ? result.duration : seconds,
  perSecond: requests / (config.amount === undefined ? result.duration : seconds),
  p50Ms: quantile(all, 0.5),
  p99Ms: quantile(all, 0.99),
  byStatus,
  p99ByStatusMs,
  errors: result.errors,
  timeouts: result.timeouts,
};
process.send?.({ type: 'result', ...measured }, () => process.exit(0));
