/**
 * `pnpm bench rejection`: how fast a full rt server refuses. rt's Slack adapter (native listener,
 * memory State) with `maxDetached` 1,024 filled by slow handlers (60 s), so every further delivery
 * is answered 503 at admission. Measured open-loop (a fixed offered rate, 5,000 deliveries per
 * second, far above the bound's drain rate of zero; latency from when each delivery was due) and,
 * in the same run against the same full server, closed-loop at full speed (50 connections, each
 * sending when answered), whose rate is the server's refusal capacity. Lower offered rates beside
 * the 5,000 show where queueing starts. Both load generators are `rejection/paced-main.ts` in its own process.
 */
import { loadavg } from 'node:os';
import type { ServerConfig } from '../ack/server-main.js';
import { runChild, startChild } from '../proc/child.js';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';
import type { PacedConfig, PacedResult } from './paced-main.js';

const HANDLER_MS = 60_000;
const TARGET_P99_MS = 5;

interface Sizes {
  readonly bound: number;
  /** Unmeasured refusals first (closed-loop), so the measured ones meet a warm server. */
  readonly warmup: number;
  /** Offered rates, ascending; the last is the target's. */
  readonly rates: readonly number[];
  /** Seconds of each open-loop load. */
  readonly openSeconds: number;
  readonly closed: number;
  readonly connections: number;
}

interface RejectionRun {
  /** One per offered rate, in the order of `Sizes.rates`. */
  readonly open: readonly PacedResult[];
  readonly closed: PacedResult;
}

interface MemoryReply {
  readonly inFlight: number;
}

async function measure(sizes: Sizes, run: number): Promise<RejectionRun> {
  const server: ServerConfig = { kind: 'native', maxDetached: sizes.bound, handlerMs: HANDLER_MS };
  const { child, ready } = await startChild<{ port: number }>('ack/server-main.ts', [
    JSON.stringify(server),
  ]);
  const url = `http://127.0.0.1:${ready.port}/slack/events`;
  const load = (config: Omit<PacedConfig, 'url'>) =>
    runChild<PacedResult>('rejection/paced-main.ts', [JSON.stringify({ url, ...config })]);
  try {
    const fill = await load({
      mode: 'closed',
      count: sizes.bound,
      connections: Math.min(sizes.connections, sizes.bound),
      run: `${run}1`,
    });
    const { inFlight } = await child.request<MemoryReply>({ type: 'memory' }, 'memory');
    if ((fill.byStatus['200'] ?? 0) !== sizes.bound || inFlight !== sizes.bound) {
      throw new Error(`rejection: bound not full (${JSON.stringify(fill.byStatus)}, ${inFlight})`);
    }
    await load({
      mode: 'closed',
      count: sizes.warmup,
      connections: sizes.connections,
      run: `${run}2`,
    });
    const open: PacedResult[] = [];
    for (const [index, rate] of sizes.rates.entries()) {
      open.push(
        await load({
          mode: 'open',
          count: Math.round(rate * sizes.openSeconds),
          rate,
          connections: sizes.connections,
          run: `${run}3${index}`,
        }),
      );
    }
    const closed = await load({
      mode: 'closed',
      count: sizes.closed,
      connections: sizes.connections,
      run: `${run}4`,
    });
    for (const result of [...open, closed]) {
      if (result.errors > 0 || (result.byStatus['503'] ?? 0) !== result.sent) {
        throw new Error(`rejection: expected only 503s, got ${JSON.stringify(result.byStatus)}`);
      }
    }
    return { open, closed };
  } finally {
    await child.stop();
  }
}

/** Runs the rejection benchmark. */
export async function rejectionBench(options: BenchRunOptions): Promise<BenchSection> {
  const sizes: Sizes = options.smoke
    ? { bound: 20, warmup: 50, rates: [200, 500], openSeconds: 0.4, closed: 200, connections: 4 }
    : {
        bound: 1024,
        warmup: 5_000,
        rates: [1_000, 2_500, 5_000],
        openSeconds: 3,
        closed: 15_000,
        connections: 50,
      };
  const targetRate = sizes.rates[sizes.rates.length - 1]!;
  const runs: RejectionRun[] = [];
  const loadAverage = loadavg()[0]!;
  for (let run = 0; run < options.runs; run += 1) {
    options.log(`rejection: run ${run + 1}/${options.runs}, bound ${sizes.bound} full`);
    runs.push(await measure(sizes, run + 1));
  }
  const m = (pick: (r: RejectionRun) => number) => median(runs.map(pick));
  const row = (label: string, pick: (r: RejectionRun) => PacedResult) => [
    label,
    formatCount(m((r) => pick(r).sent)),
    formatCount(m((r) => pick(r).sentPerSecond)),
    formatFixed(
      m((r) => pick(r).p50ByStatusMs['503']!),
      2,
    ),
    formatFixed(
      m((r) => pick(r).p99ByStatusMs['503']!),
      2,
    ),
    formatFixed(
      m((r) => pick(r).maxMs),
      1,
    ),
  ];
  const openP99 = m((r) => r.open[sizes.rates.length - 1]!.p99ByStatusMs['503']!);
  const closedP99 = m((r) => r.closed.p99ByStatusMs['503']!);
  return {
    name: 'rejection',
    title: 'Rejection latency of a full server, open-loop and closed-loop',
    method: [
      `Load average when it started: ${formatFixed(loadAverage, 1)} (a shared machine; absolute figures move with it).`,
      `rt's Slack adapter (native listener, memory State) with \`maxDetached\` ${formatCount(sizes.bound)} filled first by ${formatCount(sizes.bound)} deliveries whose handler waits 60 s (checked: all accepted and in flight), so every measured delivery is refused with 503 at admission; ${options.runs} run(s), medians.`,
      `Then ${formatCount(sizes.warmup)} unmeasured refusals (closed-loop). Open-loop: unique signed \`app_mention\` deliveries offered for ${sizes.openSeconds} s at each of ${sizes.rates.map(formatCount).join(', ')} per second over a pool of ${sizes.connections} keep-alive connections (a \`node:http\` Agent, a 1 ms pacing timer), each latency counted from when the delivery was due, so falling behind counts. Closed-loop: ${formatCount(sizes.closed)} deliveries by ${sizes.connections} senders, each sending when answered (full speed), against the same full server.`,
      'The load generator is its own process (`rejection/paced-main.ts`); deliveries are built and signed before its clock starts.',
    ],
    tables: [
      {
        header: ['load', 'deliveries', 'sent/s', 'p50 of a 503, ms', 'p99 of a 503, ms', 'max, ms'],
        rows: [
          ...sizes.rates.map((rate, index) =>
            row(`open-loop, ${formatCount(rate)}/s offered`, (r) => r.open[index]!),
          ),
          row(`closed-loop, ${sizes.connections} connections, full speed`, (r) => r.closed),
        ],
      },
    ],
    targets: [
      {
        target: `rejection p99 < ${TARGET_P99_MS} ms under an open-loop flood of ${formatCount(targetRate)} deliveries/s (bound full)`,
        figure: `${formatFixed(openP99, 2)} ms (closed-loop full speed: ${formatFixed(closedP99, 2)} ms)`,
        met: openP99 < TARGET_P99_MS,
      },
    ],
  };
}
