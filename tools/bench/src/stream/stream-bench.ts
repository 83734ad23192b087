/**
 * `pnpm bench stream`: concurrent streamed replies (`ctx.stream`) through the real adapters and a
 * runtime against the `@rt/testing` fakes, with each adapter's default stream pacing: platform
 * calls per streamed reply (against the calls its rate budget allows over the reply's life), time
 * per reply, and the heap each active stream holds at the peak.
 */
import { createDiscordAdapter } from '@rt/adapter-discord';
import { createSlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Observation, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import {
  buildChatInputCommand,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  startFakeDiscordRest,
} from '@rt/testing/discord';
import { buildAppMentionEvent, createSlackSigner, startFakeSlackApi } from '@rt/testing/slack';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, formatKiB, median } from '../report/stats.js';

const SECRET = 'bench-signing-secret';
const TEXT = 'The quick brown fox jumps over the lazy dog. ';

/** A model-paced source: `chars` characters, `step` at a time every `stepMs`. */
async function* model(chars: number, step = 30, stepMs = 20): AsyncGenerator<string> {
  for (let sent = 0; sent < chars; sent += step) {
    const from = sent % TEXT.length;
    yield (TEXT.repeat(2).slice(from, from + step) + TEXT).slice(0, Math.min(step, chars - sent));
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

interface PathResult {
  readonly callsPerReply: number;
  readonly msPerReply: number;
  readonly heapPerStream: number;
  /** Most calls one reply may make within its rate budget over its life (worst reply). */
  readonly allowedCalls: number;
  readonly worstCalls: number;
}

interface StreamPath {
  readonly name: string;
  readonly minIntervalMs: number;
  /** Starts the fake, the adapter and a runtime; `send()` starts one streamed reply. */
  setup(
    chars: number,
    observers: ((o: Observation) => void)[],
  ): Promise<{
    runtime: Runtime;
    send(i: number): Promise<void>;
    /** Platform calls per reply (keyed by reply), after the run. */
    callsPerReply(): number[];
    close(): Promise<void>;
  }>;
}

const SLACK_CALLS = new Set([
  'chat.startStream',
  'chat.appendStream',
  'chat.stopStream',
  'chat.postMessage',
  'chat.update',
]);

function slackPath(native: boolean): StreamPath {
  return {
    name: native ? 'Slack native (startStream/appendStream)' : 'Slack chat.update',
    minIntervalMs: native ? 1000 : 1500,
    async setup(chars, observers) {
      const fake = await startFakeSlackApi();
      const adapter = createSlackAdapter({
        signingSecret: SECRET,
        botToken: 'xoxb-bench',
        apiUrl: fake.url,
        webClientOptions: { retryConfig: { retries: 0 } },
        stream: { native },
      });
      const state = createMemoryState();
      const runtime = createRuntime({
        state,
        adapters: [adapter],
        observers,
        concurrency: 'concurrent',
      });
      runtime.onMention((ctx) => ctx.stream(model(chars)));
      return {
        runtime,
        async send() {
          const payload = buildAppMentionEvent({ text: '<@U0BOT> tell me' });
          await (await adapter.handler(createSlackSigner(SECRET).request(payload))).text();
        },
        callsPerReply() {
          // The first call of a reply names the thread; later ones the reply's own ts.
          const threadOf = new Map(fake.messages.all().map((m) => [m.ts, m.threadTs]));
          const perThread = new Map<string, number>();
          for (const call of fake.calls) {
            if (!SLACK_CALLS.has(call.method)) continue;
            const key = String(call.args.thread_ts ?? threadOf.get(String(call.args.ts)));
            perThread.set(key, (perThread.get(key) ?? 0) + 1);
          }
          return [...perThread.values()];
        },
        async close() {
          await runtime.shutdown({ graceMs: 0 });
          await fake.close();
          await state.close();
        },
      };
    },
  };
}

const discordPath: StreamPath = {
  name: 'Discord edits (@original, follow-ups)',
  minIntervalMs: 1200,
  async setup(chars, observers) {
    const fake = await startFakeDiscordRest({ tokens: ['bench-token'] });
    const signer = createDiscordSigner();
    const adapter = createDiscordAdapter({
      publicKey: signer.publicKey,
      applicationId: DISCORD_TEST_IDS.applicationId,
      token: 'bench-token',
      apiUrl: fake.url,
    });
    const state = createMemoryState();
    const runtime = createRuntime({
      state,
      adapters: [adapter],
      observers,
      concurrency: 'concurrent',
    });
    runtime.onCommand('ask', (ctx) => ctx.stream(model(chars)));
    return {
      runtime,
      async send() {
        const interaction = buildChatInputCommand({ name: 'ask' });
        fake.knowInteraction(interaction);
        await (await adapter.handler(signer.request(interaction))).text();
      },
      callsPerReply() {
        const perToken = new Map<string, number>();
        for (const call of fake.calls) {
          if (!call.path.startsWith('/webhooks/') || call.method === 'GET') continue;
          const token = call.params.token ?? '';
          perToken.set(token, (perToken.get(token) ?? 0) + 1);
        }
        return [...perToken.values()];
      },
      async close() {
        await runtime.shutdown({ graceMs: 0 });
        await fake.close();
        await state.close();
      },
    };
  },
};

async function runPath(path: StreamPath, streams: number, chars: number): Promise<PathResult> {
  let done = 0;
  let allDone!: () => void;
  const finished = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const durations: number[] = [];
  const observers = [
    (o: Observation) => {
      if (o.type !== 'stream_finished') return;
      if (o.status !== 'completed') throw new Error(`stream ${o.status}: ${String(o.error)}`);
      durations.push(o.durationMs);
      done += 1;
      if (done === streams) allDone();
    },
  ];
  const run = await path.setup(chars, observers);
  try {
    (globalThis as { gc?: () => void }).gc?.();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 25);
    await Promise.all(Array.from({ length: streams }, (_, i) => run.send(i)));
    await finished;
    clearInterval(sampler);
    const calls = run.callsPerReply();
    const worstMs = Math.max(...durations);
    return {
      callsPerReply: median(calls),
      msPerReply: median(durations),
      heapPerStream: (peak - baseline) / streams,
      allowedCalls: Math.ceil(worstMs / path.minIntervalMs) + 1,
      worstCalls: Math.max(...calls),
    };
  } finally {
    await run.close();
  }
}

/** Runs the stream benchmark. */
export async function streamBench(options: BenchRunOptions): Promise<BenchSection> {
  const streams = options.smoke ? 4 : 200;
  const chars = options.smoke ? 300 : 3000;
  const paths = [slackPath(true), slackPath(false), discordPath];
  const results = new Map<StreamPath, PathResult[]>(paths.map((p) => [p, []]));
  for (let run = 0; run < options.runs; run += 1) {
    for (const path of paths) {
      options.log(`stream: run ${run + 1}/${options.runs}, ${path.name}`);
      results.get(path)?.push(await runPath(path, streams, chars));
    }
  }
  const of = (path: StreamPath, pick: (r: PathResult) => number) =>
    median((results.get(path) ?? []).map(pick));
  return {
    name: 'stream',
    title: 'Concurrent streamed replies against the fakes',
    method: [
      `${formatCount(streams)} concurrent streamed replies per path, each ${formatCount(chars)} characters from a model-paced source (30 characters every 20 ms); ${options.runs} run(s), medians.`,
      'Real adapters and runtime (memory State, `concurrent` strategy) in one process with the `@rt/testing` fakes on loopback; each adapter with its default stream pacing (Slack append 1 s, update 1.5 s; Discord 1.2 s) and the default buffering (400 characters or 1 s).',
      "Heap per active stream: peak `heapUsed` during the run (sampled every 25 ms, after a GC) minus the idle figure, divided by the streams; it includes the fakes' copies of the messages and the HTTP buffers of both sides.",
    ],
    tables: [
      {
        header: [
          'path',
          'platform calls per reply',
          'ms per reply',
          'heap per active stream (KiB)',
        ],
        rows: paths.map((path) => [
          path.name,
          formatFixed(
            of(path, (r) => r.callsPerReply),
            1,
          ),
          formatCount(of(path, (r) => r.msPerReply)),
          formatKiB(of(path, (r) => r.heapPerStream)),
        ]),
      },
    ],
    targets: paths.map((path) => {
      const worst = Math.max(...(results.get(path) ?? []).map((r) => r.worstCalls));
      const allowed = Math.max(...(results.get(path) ?? []).map((r) => r.allowedCalls));
      return {
        target: `${path.name}: no reply makes more calls than one per ${path.minIntervalMs} ms of its life, plus its last`,
        figure: `worst reply ${worst} calls, budget ${allowed}`,
        met: worst <= allowed,
      };
    }),
  };
}
