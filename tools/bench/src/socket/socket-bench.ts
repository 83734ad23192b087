/**
 * `pnpm bench socket`: Socket Mode envelopes per second, each acknowledged, through the real
 * `@slack/socket-mode` client (alone, and inside rt's Slack adapter with a runtime) against a minimal
 * local Socket Mode (`pump-main.ts`), beside a bare
 * `ws` client that parses and acks each envelope: the baseline, in the same run. The fake, the
 * client and this process each run in their own process. Its target (issue 26): rt at least 0.6x
 * the library client alone, the ratio taken per run; beside it each client's own CPU per envelope.
 */
import { startChild } from '../proc/child.js';
import { cpuMicrosOf } from '../proc/rss.js';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';
import type { PumpConfig } from './pump-main.js';

const KINDS = ['ws', 'slack-client', 'rt'] as const;
type Kind = (typeof KINDS)[number];
const LABELS: Record<Kind, string> = {
  ws: 'baseline: bare ws client, parse + ack',
  'slack-client': '@slack/socket-mode 3.1 client alone, ack in the listener',
  rt: 'rt Slack adapter, Socket Mode transport, runtime with no-op handler',
};
/** Issue 26: Socket Mode through rt at least this share of the library client's rate. */
const TARGET_RATIO = 0.6;

/** One client's run: its rate, and its own CPU per envelope while the envelopes flowed. */
interface ClientRun {
  readonly rate: number;
  readonly cpuMicrosPerEnvelope: number;
}

async function runClient(kind: Kind, config: PumpConfig): Promise<ClientRun> {
  const { child: pump, ready } = await startChild<{ port: number }>('socket/pump-main.ts', [
    JSON.stringify(config),
  ]);
  try {
    const started = pump.next('started');
    const done = pump.next<{ seconds: number; acked: number }>('result');
    const { child: client } = await startChild('socket/client-main.ts', [
      JSON.stringify({ kind, apiUrl: `http://127.0.0.1:${ready.port}/api/` }),
    ]);
    try {
      await started;
      const cpuBefore = cpuMicrosOf(client.pid);
      const result = await done;
      const cpu = cpuMicrosOf(client.pid) - cpuBefore;
      return { rate: result.acked / result.seconds, cpuMicrosPerEnvelope: cpu / result.acked };
    } finally {
      await client.stop(1000);
    }
  } finally {
    await pump.stop(1000);
  }
}

/** Runs the socket benchmark. */
export async function socketBench(options: BenchRunOptions): Promise<BenchSection> {
  const config: PumpConfig = {
    count: options.smoke ? 200 : 30_000,
    window: options.smoke ? 4 : 50,
  };
  const runs: Record<Kind, ClientRun[]> = { ws: [], 'slack-client': [], rt: [] };
  for (let run = 0; run < options.runs; run += 1) {
    for (let i = 0; i < KINDS.length; i += 1) {
      const kind = KINDS[(i + run) % KINDS.length]!;
      options.log(`socket: run ${run + 1}/${options.runs}, ${kind}`);
      runs[kind].push(await runClient(kind, config));
    }
  }
  const rates = (kind: Kind) => runs[kind].map((r) => r.rate);
  const cpus = (kind: Kind) => runs[kind].map((r) => r.cpuMicrosPerEnvelope);
  /** Median over runs of `kind`'s figure divided by `base`'s figure of the same run. */
  const ratio = (kind: Kind, base: Kind, figure: (r: ClientRun) => number) =>
    median(runs[kind].map((r, run) => figure(r) / figure(runs[base][run]!)));
  const toLibrary = ratio('rt', 'slack-client', (r) => r.rate);
  const cpuToLibrary = ratio('rt', 'slack-client', (r) => r.cpuMicrosPerEnvelope);
  return {
    name: 'socket',
    title: 'Socket Mode envelopes per second',
    method: [
      `${formatCount(config.count)} unique \`events_api\` envelopes (\`app_mention\`) per client, at most ${config.window} unacknowledged, from a minimal local Socket Mode in its own process; ${options.runs} run(s), medians, ratios per run.`,
      "rt: `createSlackAdapter({ socketMode })` and a runtime (memory State, no-op `onMention`, deferred dispatch); the library client alone shows what the transport wraps. The fake is the benchmark's own minimal one, not `@rt/testing/slack`'s (which records every ack and would be the bottleneck).",
      "Client CPU = the client process's user + system time from `/proc/<pid>/stat` from its connection's arrival to the last ack, per envelope: what each envelope costs the client, whichever process limits the rate on a shared machine.",
    ],
    tables: [
      {
        header: [
          'client',
          'envelopes/s',
          'ratio to baseline',
          'ratio to library client',
          'client CPU us/envelope',
          'CPU x library client',
        ],
        rows: KINDS.map((kind) => [
          LABELS[kind],
          formatCount(median(rates(kind))),
          formatFixed(ratio(kind, 'ws', (r) => r.rate)),
          formatFixed(ratio(kind, 'slack-client', (r) => r.rate)),
          formatFixed(median(cpus(kind)), 1),
          formatFixed(ratio(kind, 'slack-client', (r) => r.cpuMicrosPerEnvelope)),
        ]),
      },
    ],
    targets: [
      {
        target: `Socket Mode through rt >= ${TARGET_RATIO}x the library client alone (same run)`,
        figure: `${formatFixed(toLibrary)}x (${formatFixed(ratio('rt', 'ws', (r) => r.rate))}x the bare ws client${
          // A smoke run is too short for /proc's CPU ticks: no CPU ratio then.
          Number.isFinite(cpuToLibrary)
            ? `; client CPU per envelope ${formatFixed(cpuToLibrary)}x the library client's`
            : ''
        })`,
        met: toLibrary >= TARGET_RATIO,
      },
    ],
  };
}
