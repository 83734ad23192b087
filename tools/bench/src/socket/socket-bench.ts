/**
 * `pnpm bench socket`: Socket Mode envelopes per second, each acknowledged, through the real
 * `@slack/socket-mode` client (alone, and inside rt's Slack adapter with a runtime) against a minimal
 * local Socket Mode (`pump-main.ts`), beside a bare
 * `ws` client that parses and acks each envelope: the baseline, in the same run. The fake, the
 * client and this process each run in their own process.
 */
import { startChild } from '../proc/child.js';
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

async function envelopesPerSecond(kind: Kind, config: PumpConfig): Promise<number> {
  const { child: pump, ready } = await startChild<{ port: number }>('socket/pump-main.ts', [
    JSON.stringify(config),
  ]);
  try {
    const done = pump.next<{ seconds: number; acked: number }>('result');
    const { child: client } = await startChild('socket/client-main.ts', [
      JSON.stringify({ kind, apiUrl: `http://127.0.0.1:${ready.port}/api/` }),
    ]);
    try {
      const result = await done;
      return result.acked / result.seconds;
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
  const rates: Record<Kind, number[]> = { ws: [], 'slack-client': [], rt: [] };
  for (let run = 0; run < options.runs; run += 1) {
    for (let i = 0; i < KINDS.length; i += 1) {
      const kind = KINDS[(i + run) % KINDS.length]!;
      options.log(`socket: run ${run + 1}/${options.runs}, ${kind}`);
      rates[kind].push(await envelopesPerSecond(kind, config));
    }
  }
  const ratio = (kind: Kind) => median(rates[kind].map((rate, run) => rate / rates.ws[run]!));
  return {
    name: 'socket',
    title: 'Socket Mode envelopes per second',
    method: [
      `${formatCount(config.count)} unique \`events_api\` envelopes (\`app_mention\`) per client, at most ${config.window} unacknowledged, from a minimal local Socket Mode in its own process; ${options.runs} run(s), medians, ratios per run.`,
      "rt: `createSlackAdapter({ socketMode })` and a runtime (memory State, no-op `onMention`, deferred dispatch); the library client alone shows what the transport wraps. The fake is the benchmark's own minimal one, not `@rt/testing/slack`'s (which records every ack and would be the bottleneck).",
    ],
    tables: [
      {
        header: ['client', 'envelopes/s', 'ratio to baseline'],
        rows: KINDS.map((kind) => [
          LABELS[kind],
          formatCount(median(rates[kind])),
          formatFixed(ratio(kind)),
        ]),
      },
    ],
    targets: [],
  };
}
