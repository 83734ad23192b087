/**
 * `pnpm bench rejection`: how fast a full rt server refuses. rt's Slack adapter (native listener,
 * memory State) with `maxDetached` 1,024 filled by slow handlers (60 s), so every further delivery
 * is answered 503 at admission. Measured open-loop (a fixed offered rate, 5,000 deliveries per
 * second, far above the bound's drain rate of zero; latency from when each delivery was due) and,
 * in the same run against the same full server, closed-loop at full speed (50 connections, each
 * sending when answered), whose rate is the server's refusal capacity, with the server's CPU time
 * per refusal (read from `/proc`). Lower offered rates beside the 5,000 show where queueing
 * starts. The same loads then meet the refusal baseline (`refusal-baseline.ts`: plain `node:http`
 * verifying, parsing and answering the same 503), the floor on this machine in the same run. The
 * load generator is `rejection/paced-main.ts` (raw keep-alive sockets, `raw-pool.ts`; paced by a
 * sleeping ticker thread, `pacer.ts`), in its own process; how late it sent each delivery (its
 * own lag, part of every latency), its CPU time and any connection a server closed are reported.
 */
import { loadavg } from 'node:os';
import type { ServerConfig } from '../ack/server-main.js';
import { runChild, startChild } from '../proc/child.js';
import { cpuMicrosOf } from '../proc/rss.js';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';
import type { PacedConfig, PacedResult } from './paced-main.js';
import { MIN_TICK_MS } from './pacer.js';

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
  /** The server's CPU time (user + system) per refusal during the closed-loop load, us. */
  readonly cpuUsPerRefusal: number;
}

/** One run against rt's full server and one against the refusal baseline. */
interface PairedRun {
  readonly rt: RejectionRun;
  readonly baseline: RejectionRun;
}

interface MemoryReply {
  readonly inFlight: number;
}

type Load = (config: Omit<PacedConfig, 'url'>) => Promise<PacedResult>;

function loaderFor(port: number): Load {
  const url = `http://127.0.0.1:${port}/slack/events`;
  return (config) =>
    runChild<PacedResult>('rejection/paced-main.ts', [JSON.stringify({ url, ...config })]);
}

/**
 * Against a server that refuses everything: the unmeasured warm-up, each open-loop rate, then the
 * closed-loop load with the server's CPU time around it; every answer must be a 503.
 */
async function refusals(load: Load, pid: number, sizes: Sizes, run: string) {
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
  const cpuBefore = cpuMicrosOf(pid);
  const closed = await load({
    mode: 'closed',
    count: sizes.closed,
    connections: sizes.connections,
    run: `${run}4`,
  });
  const cpuUsPerRefusal = (cpuMicrosOf(pid) - cpuBefore) / closed.sent;
  for (const result of [...open, closed]) {
    if (result.errors > 0 || (result.byStatus['503'] ?? 0) !== result.sent) {
      throw new Error(`rejection: expected only 503s, got ${JSON.stringify(result.byStatus)}`);
    }
  }
  return { open, closed, cpuUsPerRefusal } satisfies RejectionRun;
}

async function measureRt(sizes: Sizes, run: number): Promise<RejectionRun> {
  const server: ServerConfig = { kind: 'native', maxDetached: sizes.bound, handlerMs: HANDLER_MS };
  const { child, ready } = await startChild<{ port: number }>('ack/server-main.ts', [
    JSON.stringify(server),
  ]);
  const load = loaderFor(ready.port);
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
    return await refusals(load, child.pid, sizes, String(run));
  } finally {
    await child.stop();
  }
}

async function measureBaseline(sizes: Sizes, run: number): Promise<RejectionRun> {
  const { child, ready } = await startChild<{ port: number }>(
    'rejection/baseline-server-main.ts',
    [],
  );
  try {
    return await refusals(loaderFor(ready.port), child.pid, sizes, `${run}5`);
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
  const targetIndex = sizes.rates.length - 1;
  const runs: PairedRun[] = [];
  const loadAverage = loadavg()[0]!;
  for (let run = 0; run < options.runs; run += 1) {
    options.log(`rejection: run ${run + 1}/${options.runs}, rt, bound ${sizes.bound} full`);
    const rt = await measureRt(sizes, run + 1);
    options.log(`rejection: run ${run + 1}/${options.runs}, refusal baseline`);
    runs.push({ rt, baseline: await measureBaseline(sizes, run + 1) });
  }
  const loadAverageEnd = loadavg()[0]!;
  const m = (pick: (r: PairedRun) => number) => median(runs.map(pick));
  const p503 = (result: PacedResult, q: 'p50ByStatusMs' | 'p99ByStatusMs') => result[q]['503']!;
  const rows = (server: 'rt' | 'baseline', name: string) => {
    const row = (
      label: string,
      pick: (r: RejectionRun) => PacedResult,
      lag: boolean,
      cpu: string,
    ) => [
      name,
      label,
      formatCount(m((r) => pick(r[server]).sent)),
      formatCount(m((r) => pick(r[server]).sentPerSecond)),
      lag ? formatFixed(m((r) => pick(r[server]).lateP99Ms)) : '-',
      formatFixed(
        m((r) => pick(r[server]).cpuShare * 100),
        0,
      ),
      formatFixed(m((r) => p503(pick(r[server]), 'p50ByStatusMs'))),
      formatFixed(m((r) => p503(pick(r[server]), 'p99ByStatusMs'))),
      formatFixed(
        m((r) => pick(r[server]).maxMs),
        1,
      ),
      cpu,
    ];
    return [
      ...sizes.rates.map((rate, index) =>
        row(`open-loop, ${formatCount(rate)}/s offered`, (r) => r.open[index]!, true, '-'),
      ),
      row(
        `closed-loop, ${sizes.connections} connections, full speed`,
        (r) => r.closed,
        false,
        formatFixed(
          m((r) => r[server].cpuUsPerRefusal),
          0,
        ),
      ),
    ];
  };
  const openP99 = m((r) => p503(r.rt.open[targetIndex]!, 'p99ByStatusMs'));
  const closedP99 = m((r) => p503(r.rt.closed, 'p99ByStatusMs'));
  const baselineOpenP99 = m((r) => p503(r.baseline.open[targetIndex]!, 'p99ByStatusMs'));
  const capacityRatio = m((r) => r.rt.closed.sentPerSecond / r.baseline.closed.sentPerSecond);
  const cpuRatio = m((r) => r.rt.cpuUsPerRefusal / r.baseline.cpuUsPerRefusal);
  const reconnects = (server: 'rt' | 'baseline') =>
    formatCount(
      m((r) => [...r[server].open, r[server].closed].reduce((sum, x) => sum + x.reconnects, 0)),
    );
  return {
    name: 'rejection',
    title: 'Rejection latency of a full server, open-loop and closed-loop',
    method: [
      `Load average when it started: ${formatFixed(loadAverage, 1)}, when it ended: ${formatFixed(loadAverageEnd, 1)} (a shared machine; absolute figures move with it, the ratios to the baseline much less).`,
      `rt: its Slack adapter (native listener, memory State) with \`maxDetached\` ${formatCount(sizes.bound)} filled first by ${formatCount(sizes.bound)} deliveries whose handler waits 60 s (checked: all accepted and in flight), so every measured delivery is refused with 503 at admission. Baseline: plain \`node:http\` reading, verifying and parsing each delivery and answering the same 503 (\`rejection/refusal-baseline.ts\`), in the same run. ${options.runs} run(s), medians.`,
      `Against each server: ${formatCount(sizes.warmup)} unmeasured refusals (closed-loop), then open-loop: unique signed \`app_mention\` deliveries offered for ${sizes.openSeconds} s at each of ${sizes.rates.map(formatCount).join(', ')} per second over a pool of ${sizes.connections} raw keep-alive connections (\`node:net\`, requests serialised before the clock starts, at most one in flight per connection), paced by a ticker thread sleeping in \`Atomics.wait\` until each due time (at least ${MIN_TICK_MS} ms between wake-ups; no spin), each latency counted from when the delivery was due to when its answer's first bytes arrived, so falling behind counts; "generator lag" is how late the generator itself sent them (its ticker and event loop), part of every latency. "Generator CPU" is its process's CPU time (user + system) over the load; connections a server closed (and the generator reopened) over all loads: rt ${reconnects('rt')}, baseline ${reconnects('baseline')}. Closed-loop: ${formatCount(sizes.closed)} deliveries by ${sizes.connections} senders, each sending when answered (full speed); its rate is the server's refusal capacity under this load generator, and the server's CPU time (user + system, from \`/proc\`) during it, per refusal, is the load-independent figure.`,
      'The load generator is its own process (`rejection/paced-main.ts`); deliveries are built and signed before its clock starts.',
    ],
    tables: [
      {
        header: [
          'server',
          'load',
          'deliveries',
          'sent/s',
          'generator lag p99, ms',
          'generator CPU, % of a core',
          'p50 of a 503, ms',
          'p99 of a 503, ms',
          'max, ms',
          'server CPU per refusal, us',
        ],
        rows: [...rows('rt', 'rt, bound full'), ...rows('baseline', 'baseline (node:http 503)')],
      },
    ],
    targets: [
      {
        target: `rejection p99 < ${TARGET_P99_MS} ms under an open-loop flood of ${formatCount(targetRate)} deliveries/s (bound full)`,
        figure: `${formatFixed(openP99, 2)} ms (closed-loop full speed: ${formatFixed(closedP99, 2)} ms; the baseline at ${formatCount(targetRate)}/s: ${formatFixed(baselineOpenP99, 2)} ms; closed-loop capacity ${formatFixed(capacityRatio)}x the baseline's, server CPU per refusal ${formatFixed(cpuRatio)}x)`,
        met: openP99 < TARGET_P99_MS,
      },
    ],
  };
}
