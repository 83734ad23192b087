/**
 * `pnpm bench ack`: acknowledgement throughput of rt's Slack and Discord adapters on `node:http`
 * (each one's native listener and its web-standard handler through `toNodeListener`), each against
 * its own platform's verify-parse-200 baseline, all in the same run under the same load: unique
 * signed deliveries (Slack `app_mention` events, Discord button interactions) over 50 keep-alive
 * connections from autocannon in its own process; no-op handler, deferred dispatch, memory State.
 * Each run measures every server once (in a rotating order); figures are medians of the runs,
 * ratios are per run against that run's baseline of the same platform, then the median.
 */
import { runChild, startChild } from '../proc/child.js';
import { cpuMicrosOf } from '../proc/rss.js';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';
import type { LoadConfig, LoadResult } from './load-main.js';
import type { ServerConfig } from './server-main.js';

const KINDS = [
  'slack-baseline',
  'slack-native',
  'slack-web',
  'discord-baseline',
  'discord-native',
  'discord-web',
] as const;
type Kind = (typeof KINDS)[number];
type Platform = 'slack' | 'discord';

const LABELS: Record<Kind, string> = {
  'slack-baseline': 'Slack baseline: node:http HMAC verify + JSON.parse + 200',
  'slack-native': 'rt Slack adapter, native node:http listener',
  'slack-web': 'rt Slack adapter, web handler via toNodeListener',
  'discord-baseline': 'Discord baseline: node:http Ed25519 verify + JSON.parse + 200 {"type":6}',
  'discord-native': 'rt Discord adapter, native node:http listener',
  'discord-web': 'rt Discord adapter, web handler via toNodeListener',
};

/** Issue 26: the native path's throughput at least this ratio of its platform's baseline... */
const THROUGHPUT_TARGET = 0.8;
/** ...and its server CPU per acknowledged request at most this multiple of the baseline's. */
const CPU_TARGET = 2;

function platformOf(kind: Kind): Platform {
  return kind.startsWith('discord') ? 'discord' : 'slack';
}

function serverOf(kind: Kind): ServerConfig {
  const [platform, shell] = kind.split('-') as [Platform, ServerConfig['kind']];
  return { kind: shell, platform, handlerMs: 0 };
}

function baselineOf(kind: Kind): Kind {
  return `${platformOf(kind)}-baseline`;
}

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
    const path = server.platform === 'discord' ? '/interactions' : '/slack/events';
    const url = `http://127.0.0.1:${ready.port}${path}`;
    const { warmupS, ...measured } = load;
    if (warmupS !== undefined && warmupS > 0) {
      const warmup: LoadConfig = {
        url,
        connections: load.connections,
        durationS: warmupS,
        run: `9${load.run}`,
        ...(load.platform === undefined ? {} : { platform: load.platform }),
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
  const results = Object.fromEntries(KINDS.map((kind) => [kind, []])) as unknown as Record<
    Kind,
    ServerLoadResult[]
  >;
  for (let run = 0; run < options.runs; run += 1) {
    for (let i = 0; i < KINDS.length; i += 1) {
      const kind = KINDS[(i + run) % KINDS.length]!;
      options.log(`ack: run ${run + 1}/${options.runs}, ${kind}`);
      const result = await loadServer(serverOf(kind), {
        connections,
        durationS,
        warmupS,
        run: String(run + 1),
        platform: platformOf(kind),
      });
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
    median(results[kind].map((r, run) => r.perSecond / results[baselineOf(kind)][run]!.perSecond));
  const cpuRatio = (kind: Kind) =>
    median(
      results[kind].map(
        (r, run) => r.serverCpuUsPerRequest / results[baselineOf(kind)][run]!.serverCpuUsPerRequest,
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
  return {
    name: 'ack',
    title: 'Acknowledgement throughput (Slack Events API and Discord interactions over HTTP)',
    method: [
      `Unique, correctly signed deliveries (Slack: \`app_mention\` events; Discord: button interactions, Ed25519-signed), ${connections} keep-alive connections, autocannon 9 in its own process, ${warmupS} s warm-up then ${durationS} s measured per server, ${options.runs} run(s), each server once per run.`,
      'rt: memory State, no-op handler (`onMention`, `onAction`), deferred dispatch, default strategy; every response must be 200 (Discord: `{"type":6}`).',
      "Figures are medians over runs; the ratio is taken per run against that run's baseline of the same platform (each platform's own verify + parse + 200), then the median.",
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
    targets: (['slack', 'discord'] as const).flatMap((platform) => {
      const name = platform === 'slack' ? 'Slack' : 'Discord';
      const native = `${platform}-native` as const;
      const web = `${platform}-web` as const;
      return [
        {
          target: `${name} ack throughput >= ${THROUGHPUT_TARGET}x its baseline (native path)`,
          figure: `${formatFixed(ratio(native))}x (web path ${formatFixed(ratio(web))}x)`,
          met: ratio(native) >= THROUGHPUT_TARGET,
        },
        {
          target: `${name} server CPU per acknowledged request <= ${CPU_TARGET}x its baseline (native path)`,
          figure: `${formatFixed(cpuRatio(native))}x (web path ${formatFixed(cpuRatio(web))}x)`,
          met: cpuRatio(native) <= CPU_TARGET,
        },
      ];
    }),
  };
}
