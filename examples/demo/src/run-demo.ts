import { randomBytes } from 'node:crypto';
import { DEFAULT_DISCORD_ADAPTER_OPTIONS } from '@rt/adapter-discord';
import { DEFAULT_SLACK_ADAPTER_OPTIONS } from '@rt/adapter-slack';
import { SignerClient } from '@rt/testing/slack';
import { startBot } from './bot/create-bot.js';
import { STREAM_MARKERS } from './bot/handlers.js';
import type { DemoConfig } from './config/demo-config.js';
import { HELP_TEXT, parseFlags } from './config/flags.js';
import { type DemoTimings, validateConfig } from './config/limits.js';
import { checkDiscordInvariants } from './discord/discord-checks.js';
import { planDiscordTraffic } from './discord/discord-plan.js';
import { DiscordSimulator } from './discord/discord-simulator.js';
import { Metrics, type Snapshot } from './metrics.js';
import { SimulatorLedger } from './simulator/ledger.js';
import { SlackSimulator } from './simulator/slack-simulator.js';
import { planTraffic } from './simulator/traffic-plan.js';
import { SimulatedWebApi } from './simulator/web-api.js';
import { runSocketModeDemo, type SocketDemoReport } from './socket-mode/socket-run.js';
import { checkInvariants, type Invariant } from './summary/invariants.js';
import { renderedPayloadsAccepted } from './summary/payload-checks.js';
import { countReplyEnds, listCounts, streamedRepliesHonest } from './summary/stream-checks.js';
import {
  discordStreamedReplies,
  observedStreams,
  slackStreamedReplies,
} from './summary/stream-replies.js';
import type { DiscordHandled } from './summary/summary.js';
import { renderSummary } from './summary/summary.js';
import { seconds } from './view/format.js';
import { LiveRenderer } from './view/live-renderer.js';
import { PlainRenderer } from './view/plain-renderer.js';
import type { Output, Renderer } from './view/renderer.js';

/** Where the demo writes, and what may stop it early. */
export interface DemoIo {
  /** The view and the summary. `columns` (a TTY's width) truncates the live view's lines. */
  readonly stdout: Output & { readonly isTTY?: boolean; readonly columns?: number };
  /** Usage errors (one line); `stdout` when absent. */
  readonly stderr?: Output;
  /**
   * Aborting it (Ctrl-C) stops the run early: nothing more is sent, Slack's scheduled retries are
   * dropped, the bot drains and the summary reports what was measured; the exit code is 3.
   */
  readonly signal?: AbortSignal;
}

/** The measured result of one run. */
export interface DemoReport {
  readonly config: DemoConfig;
  /** The Slack invariants, then the Discord ones. */
  readonly invariants: readonly Invariant[];
  readonly final: Snapshot;
  /** The Slack adapter's terminal outcomes (the runtime's ledger, per adapter). */
  readonly outcomes: Readonly<Record<string, number>>;
  /** Slack deliveries the runtime accepted. */
  readonly accepted: number;
  /** Slack deliveries the runtime received. */
  readonly received: number;
  readonly handled: { readonly event: number; readonly command: number; readonly click: number };
  /** The Discord side: its outcomes, acceptances and handled counts, as for Slack. */
  readonly discord: {
    readonly outcomes: Readonly<Record<string, number>>;
    readonly accepted: number;
    readonly handled: DiscordHandled;
  };
  /** The simulator's record of the run. */
  readonly ledger: SimulatorLedger;
  /** Why the run stopped before Slack had finished; absent when it ran to the end. */
  readonly stoppedEarly?: string;
}

/** Exit codes of `main`. */
export const EXIT_CODES = Object.freeze({
  passed: 0,
  invariantFailed: 1,
  usage: 2,
  stoppedEarly: 3,
});

/** What `main` resolves with: the process exit code and, when the demo ran, its report. */
export interface DemoOutcome {
  readonly exitCode: number;
  readonly report?: DemoReport;
  /** The report of a `--transport socket-mode` run. */
  readonly socketReport?: SocketDemoReport;
}

const FRAME_INTERVAL_MS = 250;
const BOT_TOKEN = 'xoxb-demo-token';

/**
 * Waits until `done()`, `timeoutMs` or `signal`, polling every `everyMs`. Resolves whether
 * `done()` became true.
 */
async function waitFor(
  done: () => boolean,
  timeoutMs: number,
  signal: AbortSignal,
  everyMs = 50,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline || signal.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}

/** A stop reason as one line of text. */
function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' ? reason : 'aborted';
}

/**
 * Runs one demo: starts the bot and the simulator, floods, drains, checks, reports. `config` is
 * validated first (`validateConfig` throws a `RangeError` for values no run could honour).
 */
export async function runDemo(
  config: DemoConfig,
  io: DemoIo,
  timings: DemoTimings = validateConfig(config),
): Promise<DemoReport> {
  const out = io.stdout;
  const busyText = DEFAULT_SLACK_ADAPTER_OPTIONS.busyText;
  const secret = randomBytes(16).toString('hex');
  const ledger = new SimulatorLedger();
  const webApi = await SimulatedWebApi.start(ledger, busyText);
  const discord = await DiscordSimulator.start([
    busyText,
    DEFAULT_DISCORD_ADAPTER_OPTIONS.unavailableText,
  ]);
  const discordPlan = planDiscordTraffic(config);
  const bot = await startBot({
    discord: discord.credentials,
    signingSecret: secret,
    botToken: BOT_TOKEN,
    apiUrl: webApi.url,
    busyText,
    maxDetached: config.maxDetached,
    detachTimeoutMs: timings.detachTimeoutMs,
    handlerMs: config.handlerMs,
    seed: config.seed,
  });
  discord.connect(bot.discordUrl);
  const simulator = new SlackSimulator(
    new SignerClient(bot.url, secret),
    ledger,
    webApi,
    config.timeScale,
  );
  const plan = planTraffic(config);
  const metrics = new Metrics(bot, ledger, webApi, simulator, busyText, discord);
  const totals = {
    events: config.events,
    commands: config.commands,
    clicks: config.clicks,
    discordMessages: config.discordMessages,
    discordCommands: config.discordCommands,
    discordClicks: config.discordClicks,
    discordSuggestions: config.discordSuggestions,
  };
  const renderer: Renderer =
    out.isTTY === true
      ? new LiveRenderer(out, totals, () => out.columns)
      : new PlainRenderer(out, totals);
  out.write(
    `rt demo: bot at ${bot.url} (maxDetached ${config.maxDetached}, deferred dispatch), ` +
      `Slack simulator Web API at ${webApi.url}\n` +
      `Discord interactions at ${bot.discordUrl} (the same runtime and State), Discord simulator ` +
      `REST and gateway at ${discord.credentials.apiUrl}\n` +
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
  if (io.signal?.aborted === true) onAbort();
  else io.signal?.addEventListener('abort', onAbort, { once: true });
  // Hard cap (validated to fit a timer): reaching it stops the run early.
  const cap = setTimeout(
    () => stop.abort(new Error(`time cap of ${seconds(timings.capMs)} reached`)),
    timings.capMs,
  );
  let stoppedEarly: string | undefined;
  try {
    metrics.phase = 'flooding';
    await Promise.all([simulator.run(plan, stop.signal), discord.run(discordPlan, stop.signal)]);
    metrics.phase = 'draining';
    const drained = () => bot.runtime.stats().detachedInFlight === 0;
    await waitFor(drained, timings.drainMs, stop.signal);
    if (stop.signal.aborted) stoppedEarly = reasonText(stop.signal.reason);
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
  const payloads = {
    slack: { validated: webApi.validatedPayloads, rejected: [...webApi.rejections] },
    discord: { validated: discord.validatedPayloads, rejected: [...discord.rejections] },
  };
  const mentions = new Set(discordPlan.filter((i) => i.kind === 'message').map((i) => i.id));
  const streamed = [
    ...slackStreamedReplies(ledger, webApi.messages()),
    ...discordStreamedReplies(discord.messages(), mentions, (text) =>
      discord.record.isRefusal(text),
    ),
  ];
  const gatewayCloses = await discord.closes();
  const identifies = discord.gatewayEvents.filter((e) => e.type === 'identify').length;
  await discord.close();
  // Each platform's checks read that platform's share of the runtime's ledger.
  const slackName = bot.slack.name;
  const outcomes = bot.tally.outcomesOf(slackName);
  const accepted = bot.tally.acceptedOf(slackName);
  const received = Object.values(outcomes).reduce((sum, n) => sum + n, 0);
  const discordOutcomes = bot.tally.outcomesOf(bot.discord?.name ?? 'discord');
  const invariants = [
    ...checkInvariants({
      config,
      ledger,
      tally: bot.tally,
      outcomes,
      accepted,
      final,
      busyText,
      ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
    }),
    ...checkDiscordInvariants({
      plan: discordPlan,
      record: discord.record,
      tally: bot.tally,
      gatewayCloses,
      identifies,
      ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
    }),
    streamedRepliesHonest({
      replies: streamed,
      observed: new Map([
        ...observedStreams('Slack', bot.tally.streamsOf(slackName)),
        ...observedStreams('Discord', bot.tally.streamsOf(bot.discord?.name ?? 'discord')),
      ]),
      modelStops: bot.tally.modelStops,
      markers: STREAM_MARKERS,
    }),
    renderedPayloadsAccepted(payloads),
  ];
  const discordReport = {
    outcomes: discordOutcomes,
    accepted: bot.tally.acceptedOf(bot.discord?.name ?? 'discord'),
    handled: {
      messages: bot.tally.handledCount('discordMessage'),
      commands: bot.tally.handledCount('discordCommand'),
      clicks: bot.tally.handledCount('discordClick'),
    },
  };
  out.write(
    renderSummary({
      config,
      plan,
      ledger,
      final,
      outcomes,
      received,
      accepted,
      invariants,
      busyText,
      discord: { ...discordReport, counts: final.discord },
      streams: listCounts(countReplyEnds(streamed, STREAM_MARKERS)),
      ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
    }),
  );
  return {
    config,
    invariants,
    final,
    outcomes,
    accepted,
    received,
    handled: final.handled,
    discord: discordReport,
    ledger,
    ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
  };
}

/**
 * The demo's entry point: parses `argv` (flags only), runs the demo and resolves the exit code
 * (`EXIT_CODES`): 0 when the run finished and every invariant passed, 1 when one failed, 2 on a
 * usage error (one line on `stderr`), 3 when the run stopped early (Ctrl-C or the time cap).
 */
export async function main(argv: readonly string[], io: DemoIo): Promise<DemoOutcome> {
  const parsed = parseFlags(argv);
  if (parsed.kind === 'help') {
    io.stdout.write(HELP_TEXT);
    return { exitCode: EXIT_CODES.passed };
  }
  if (parsed.kind === 'error') {
    (io.stderr ?? io.stdout).write(`rt demo: ${parsed.message} (see --help)\n`);
    return { exitCode: EXIT_CODES.usage };
  }
  if (parsed.transport === 'socket-mode') {
    const socketReport = await runSocketModeDemo(parsed.config, io, parsed.timings);
    if (socketReport.stoppedEarly !== undefined) {
      return { exitCode: EXIT_CODES.stoppedEarly, socketReport };
    }
    const passed = socketReport.invariants.every((i) => i.passed);
    return { exitCode: passed ? EXIT_CODES.passed : EXIT_CODES.invariantFailed, socketReport };
  }
  const report = await runDemo(parsed.config, io, parsed.timings);
  if (report.stoppedEarly !== undefined) return { exitCode: EXIT_CODES.stoppedEarly, report };
  const passed = report.invariants.every((i) => i.passed);
  return { exitCode: passed ? EXIT_CODES.passed : EXIT_CODES.invariantFailed, report };
}
