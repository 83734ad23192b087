/**
 * `pnpm bench ack`: acknowledgement throughput of rt's Slack adapter on `node:http` (its native
 * listener and its web-standard handler through `toNodeListener`) against the verify-parse-200
 * baseline, all in the same run under the same load: unique signed `app_mention` deliveries over
 * 50 keep-alive connections from autocannon in its own process; no-op handler, deferred dispatch,
 * memory State. Each run measures every server once (in a rotating order); figures are medians
 * of the runs, ratios are per run, then the median.
 */
import { runChild, startChild } from '../proc/child.js';
import { cpuMicrosOf } from '../proc/rss.js';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';
import type { LoadConfig, LoadResult } from './load-main.js';
import type { ServerConfig } from './server-main.js';

const KINDS = ['baseline', 'native', 'web'] as const;
type Kind = (typeof KINDS)[number];

const LABELS: Record<Kind, string> = {
  baseline: 'baseline: node:http verify + JSON.parse + 200',
  native: 'rt Slack adapter, native node:http listener',
  web: 'rt Slack adapter, web handler via toNodeListener',
};

/** A measured load, with the server's CPU time per answered request (from `/proc`). */
export type ServerLoadResult = LoadResult & { readonly serverCpuUsPerRequest: number };

/**
 * Starts `server`, loads it with `load` (the warm-up in a load process of its own, so the
 * server's CPU time is read around the measured load only), stops it.
 */
export async function loadServer(
  server: ServerConfig,
  load: Omit<LoadConfig, 'url'>,
): Promise<ServerLoadResult> {
  const { child, ready } = await startChild<{ port: number }>('ack/server-main.ts', [
    JSON.stringify(server),
  ]);
  try {
    const url = `http://127.0.0.1:${ready.port}/slack/events`;
    const { warmupS, ...measured } = load;
    if (warmupS !== undefined && warmupS > 0) {
      const warmup: LoadConfig = {
        url,
        connections: load.connections,
        durationS: warmupS,
        run: `9${load.run}`,
      };
      await runChild<LoadResult>('ack/load-main.ts', [JSON.stringify(warmup)]);
    }
    const cpuBefore = cpuMicrosOf(child.pid);
    const result = await runChild<LoadResult>('ack/load-main.ts', [
      JSON.stringify({ ...measured, url } satisfies LoadConfig),
    ]);
    const cpu = cpuMicrosOf(child.pid) - cpuBefore;
    return { ...result, serverCpuUsPerRequest: cpu / Math.max(1, result.requests) };
  } finally {
    await child.stop();
  }
}

/** Runs the ack benchmark. */
export async function ackBench(options: BenchRunOptions): Promise<BenchSection> {
  const connections = options.smoke ? 2 : 50;
  const durationS = options.smoke ? 0.5 : 8;
  const warmupS = options.smoke ? 0 : 2;
  const results: Record<Kind, ServerLoadResult[]> = { baseline: [], native: [], web: [] };
  for (let run = 0; run < options.runs; run += 1) {
    for (let i = 0; i < KINDS.length; i += 1) {
      const kind = KINDS[(i + run) % KINDS.length]!;
      options.log(`ack: run ${run + 1}/${options.runs}, ${kind}`);
      const result = await loadServer(
        { kind, handlerMs: 0 },
        { connections, durationS, warmupS, run: String(run + 1) },
      );
      const ok = result.byStatus['200'] ?? 0;
      if (ok !== result.requests) {
        throw new Error(
          `ack ${kind}: ${result.requests - ok} of ${result.requests} not answered 200 (${JSON.stringify(result.byStatus)})`,
        );
      }
      results[kind].push(result);
    }
  }
  const ratio = (kind: Kind) =>
    median(results[kind].map((r, run) => r.perSecond / results.baseline[run]!.perSecond));
  const cpuRatio = (kind: Kind) =>
    median(
      results[kind].map(
        (r, run) => r.serverCpuUsPerRequest / results.baseline[run]!.serverCpuUsPerRequest,
      ),
    );
  const rows = KINDS.map((kind) => [
    LABELS[kind],
    formatCount(median(results[kind].map((r) => r.perSecond))),
    formatFixed(ratio(kind)),
    formatFixed(median(results[kind].map((r) => r.p50Ms)), 1),
    formatFixed(median(results[kind].map((r) => r.p99Ms)), 1),
    formatCount(median(results[kind].map((r) => r.serverCpuUsPerRequest))),
    formatFixed(cpuRatio(kind)),
  ]);
  const best = Math.max(ratio('native'), ratio('web'));
  return {
    name: 'ack',
    title: 'Acknowledgement throughput (Slack Events API over HTTP)',
    method: [
      `Unique, correctly signed \`app_mention\` deliveries, ${connections} keep-alive connections, autocannon 9 in its own process, ${warmupS} s warm-up then ${durationS} s measured per server, ${options.runs} run(s), each server once per run.`,
      'rt: memory State, no-op `onMention` handler, deferred dispatch, default strategy; every response must be 200.',
      'Figures are medians over runs; the ratio is taken per run against the baseline of that run, then the median.',
      "Server CPU = the server process's user + system time from `/proc/<pid>/stat` during the measured load, per answered request: what each answer costs, whichever process (server or load generator) limits the rate on a shared 2-core machine.",
    ],
    tables: [
      {
        header: [
          'server',
          'req/s',
          'ratio to baseline',
          'p50 ms',
          'p99 ms',
          'server CPU us/request',
          'CPU x baseline',
        ],
        rows,
      },
    ],
    targets: [
      {
        target: 'ack throughput >= 0.7x the baseline (native path)',
        figure: `${formatFixed(ratio('native'))}x (web path ${formatFixed(ratio('web'))}x)`,
        met: best >= 0.7 && ratio('native') >= 0.7,
      },
    ],
  };
}
