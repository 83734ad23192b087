import { randomBytes } from 'node:crypto';
import { DEFAULT_SLACK_ADAPTER_OPTIONS } from '@rt/adapter-slack';
import { startBot } from './bot/create-bot.js';
import { type DemoConfig, HELP_TEXT, parseFlags } from './config/flags.js';
import { Metrics, type Snapshot } from './metrics.js';
import { SimulatorLedger } from './simulator/ledger.js';
import { SignerClient } from './simulator/signer-client.js';
import { SlackSimulator } from './simulator/slack-simulator.js';
import { planTraffic, retryHorizonMs } from './simulator/traffic-plan.js';
import { SimulatedWebApi } from './simulator/web-api.js';
import { checkInvariants, type Invariant } from './summary/invariants.js';
import { renderSummary } from './summary/summary.js';
import { seconds } from './view/format.js';
import { LiveRenderer } from './view/live-renderer.js';
import { PlainRenderer } from './view/plain-renderer.js';
import type { Output, Renderer } from './view/renderer.js';

/** Where the demo writes, and what may stop it early. */
export interface DemoIo {
  readonly stdout: Output & { readonly isTTY?: boolean };
  /** Aborting it (Ctrl-C) stops the flood; the run then drains and reports what it measured. */
  readonly signal?: AbortSignal;
}

/** The measured result of one run. */
export interface DemoReport {
  readonly config: DemoConfig;
  readonly invariants: readonly Invariant[];
  readonly final: Snapshot;
  readonly outcomes: Readonly<Record<string, number>>;
  readonly accepted: number;
  readonly received: number;
  readonly handled: { readonly event: number; readonly command: number; readonly click: number };
}

/** What `main` resolves with: the process exit code and, when the demo ran, its report. */
export interface DemoOutcome {
  readonly exitCode: number;
  readonly report?: DemoReport;
}

const FRAME_INTERVAL_MS = 250;
const BOT_TOKEN = 'xoxb-demo-token';

/** Waits until `done()` or `timeoutMs`, polling every `everyMs`. Resolves whether it got there. */
async function waitFor(done: () => boolean, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}

/** Runs one demo: starts the bot and the simulator, floods, drains, checks, reports. */
export async function runDemo(config: DemoConfig, io: DemoIo): Promise<DemoReport> {
  const out = io.stdout;
  const busyText = DEFAULT_SLACK_ADAPTER_OPTIONS.busyText;
  const secret = randomBytes(16).toString('hex');
  const ledger = new SimulatorLedger();
  const webApi = await SimulatedWebApi.start(ledger, busyText);
  const bot = await startBot({
    signingSecret: secret,
    botToken: BOT_TOKEN,
    apiUrl: webApi.url,
    busyText,
    maxDetached: config.maxDetached,
    handlerMs: config.handlerMs,
    seed: config.seed,
  });
  const simulator = new SlackSimulator(
    new SignerClient(bot.url, secret),
    ledger,
    webApi,
    config.timeScale,
  );
  const plan = planTraffic(config);
  const metrics = new Metrics(bot, ledger, webApi, simulator, busyText);
  const totals = { events: config.events, commands: config.commands, clicks: config.clicks };
  const renderer: Renderer =
    out.isTTY === true ? new LiveRenderer(out, totals) : new PlainRenderer(out, totals);
  out.write(
    `rt demo: bot at ${bot.url} (maxDetached ${config.maxDetached}, deferred dispatch), ` +
      `Slack simulator Web API at ${webApi.url}\n` +
      `Slack time compressed x${config.timeScale}: retries at once, +${seconds(60_000 / config.timeScale)} ` +
      `(1 min), +${seconds(300_000 / config.timeScale)} (5 min); ${plan.bursts} bursts over ` +
      `${seconds(config.durationMs)}\n\n`,
  );
  const ticker = setInterval(() => {
    if (metrics.phase === 'flooding' && simulator.allSent) metrics.phase = 'retry tail';
    renderer.frame(metrics.sample());
  }, FRAME_INTERVAL_MS);
  const stop = new AbortController();
  const onAbort = () => stop.abort(io.signal?.reason);
  io.signal?.addEventListener('abort', onAbort, { once: true });
  // Hard cap: the flood, Slack's whole retry horizon, and generous room for slow handlers.
  const capMs =
    config.durationMs + retryHorizonMs(config.timeScale) + 3 * config.handlerMs + 30_000;
  const cap = setTimeout(() => stop.abort(new Error('time cap reached')), capMs);
  try {
    metrics.phase = 'flooding';
    await simulator.run(plan, stop.signal);
    metrics.phase = 'draining';
    await waitFor(() => bot.runtime.stats().detachedInFlight === 0, 3 * config.handlerMs + 10_000);
    await bot.close(2000);
  } finally {
    clearTimeout(cap);
    clearInterval(ticker);
    io.signal?.removeEventListener('abort', onAbort);
  }
  metrics.phase = 'done';
  const final = metrics.sample();
  renderer.stop(final);
  await webApi.close();
  const stats = bot.runtime.stats();
  const invariants = checkInvariants({
    config,
    ledger,
    webApi,
    tally: bot.tally,
    outcomes: stats.outcomes,
    accepted: stats.accepted,
    final,
    busyText,
  });
  out.write(
    renderSummary({
      config,
      plan,
      ledger,
      final,
      outcomes: stats.outcomes,
      received: stats.received,
      accepted: stats.accepted,
      invariants,
    }),
  );
  return {
    config,
    invariants,
    final,
    outcomes: stats.outcomes,
    accepted: stats.accepted,
    received: stats.received,
    handled: final.handled,
  };
}

/**
 * The demo's entry point: parses `argv` (flags only), runs the demo and resolves the exit code:
 * 0 when every invariant passed, 1 when one failed, 2 on a usage error.
 */
export async function main(argv: readonly string[], io: DemoIo): Promise<DemoOutcome> {
  const parsed = parseFlags(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(HELP_TEXT);
    return { exitCode: 0 };
  }
  if (parsed.kind === 'error') {
    io.stdout.write(`${parsed.message}\n\n${HELP_TEXT}`);
    return { exitCode: 2 };
  }
  const report = await runDemo(parsed.config, io);
  return { exitCode: report.invariants.every((i) => i.passed) ? 0 : 1, report };
}
