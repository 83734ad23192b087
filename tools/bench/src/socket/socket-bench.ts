/**
 * `pnpm bench socket`: Socket Mode envelopes per second, each acknowledged, through the real
 * `@slack/socket-mode` client against a minimal local Socket Mode (`pump-main.ts`), beside a bare
 * `ws` client that parses and acks each envelope: the baseline, in the same run. The fake, the
 * client and this process each run in their own process.
 */
import { startChild } from '../proc/child.js';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';
import type { PumpConfig } from './pump-main.js';

const KINDS = ['ws', 'slack-client'] as const;
type Kind = (typeof KINDS)[number];
const LABELS: Record<Kind, string> = {
  ws: 'baseline: bare ws client, parse + ack',
  'slack-client': '@slack/socket-mode 3.1 client, ack in the listener',
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
  const rates: Record<Kind, number[]> = { ws: [], 'slack-client': [] };
  for (let run = 0; run < options.runs; run += 1) {
    for (let i = 0; i < KINDS.length; i += 1) {
      const kind = KINDS[(i + run) % KINDS.length]!;
      options.log(`socket: run ${run + 1}/${options.runs}, ${kind}`);
      rates[kind].push(await envelopesPerSecond(kind, config));
    }
  }
  const ratio = median(rates['slack-client'].map((rate, run) => rate / rates.ws[run]!));
  return {
    name: 'socket',
    title: 'Socket Mode envelopes per second',
    method: [
      `${formatCount(config.count)} unique \`events_api\` envelopes (\`app_mention\`) per client, at most ${config.window} unacknowledged, from a minimal local Socket Mode in its own process; ${options.runs} run(s), medians, ratios per run.`,
      "The Socket Mode transport of `@rt/adapter-slack` (branch h7-socket) had not landed in main when this benchmark was written: it measures the real client this transport wraps, against its own minimal fake rather than `@rt/testing/slack`'s (which records every ack).",
    ],
    tables: [
      {
        header: ['client', 'envelopes/s', 'ratio to baseline'],
        rows: KINDS.map((kind) => [
          LABELS[kind],
          formatCount(median(rates[kind])),
          kind === 'ws' ? '1.00' : formatFixed(ratio),
        ]),
      },
    ],
    targets: [],
  };
}
