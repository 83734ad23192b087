import type { DemoBot } from './bot/create-bot.js';
import type { DiscordCounts } from './discord/discord-record.js';
import type { DiscordSimulator } from './discord/discord-simulator.js';
import type { SimulatorCounters, SimulatorLedger } from './simulator/ledger.js';
import type { SlackSimulator } from './simulator/slack-simulator.js';
import type { SimulatedWebApi, WebApiCounters } from './simulator/web-api.js';

/** Where the run is. */
export type Phase = 'starting' | 'flooding' | 'retry tail' | 'draining' | 'done';

/** One measured view of the run. Every number is read from the simulator, the bot or the process. */
export interface Snapshot {
  readonly elapsedMs: number;
  readonly phase: Phase;
  readonly sim: Readonly<SimulatorCounters>;
  readonly web: Readonly<WebApiCounters>;
  /** Retries scheduled and not yet sent. */
  readonly retriesWaiting: number;
  readonly handled: { readonly event: number; readonly command: number; readonly click: number };
  /**
   * Busy texts users saw for rejected invocations: `/ask` in its acknowledgement, clicks via the
   * click's own `response_url` (attributed by which invocation the URL was handed out with).
   */
  readonly busyShown: { readonly commands: number; readonly clicks: number };
  /**
   * Busy texts posted to a slash command's `response_url` (the adapter's late signal for an
   * acknowledged invocation that was then dropped), and to URLs no invocation owns.
   */
  readonly lateBusy: { readonly commands: number; readonly unknown: number };
  /** `runtime.stats().detachedInFlight`. */
  readonly inFlight: number;
  /** Handler bodies running now and at most so far, counted by the handlers' own wrapper. */
  readonly handlersRunning: number;
  readonly handlersPeak: number;
  readonly maxDetached: number;
  /** Highest `detachedInFlight` from the 4 Hz samples so far. */
  readonly peakSampled: number;
  readonly samples: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly peakRssBytes: number;
  readonly peakHeapUsedBytes: number;
  /**
   * Discord, from its simulator's record: deliveries sent, answered (a handler's answer, or
   * autocomplete choices) and told busy, by kind; and Discord handler bodies running now.
   */
  readonly discord: DiscordCounts & { readonly handlersRunning: number };
}

/** Samples the run: the view's frames and the summary's peaks come from here. */
export class Metrics {
  phase: Phase = 'starting';
  readonly #started = performance.now();
  readonly #bot: DemoBot;
  readonly #ledger: SimulatorLedger;
  readonly #webApi: SimulatedWebApi;
  readonly #simulator: SlackSimulator;
  readonly #busyText: string;
  readonly #discord: DiscordSimulator;
  #peakSampled = 0;
  #samples = 0;
  #peakRss = 0;
  #peakHeap = 0;

  constructor(
    bot: DemoBot,
    ledger: SimulatorLedger,
    webApi: SimulatedWebApi,
    simulator: SlackSimulator,
    busyText: string,
    discord: DiscordSimulator,
  ) {
    this.#discord = discord;
    this.#bot = bot;
    this.#ledger = ledger;
    this.#webApi = webApi;
    this.#simulator = simulator;
    this.#busyText = busyText;
  }

  /** Takes a sample (runtime stats, memory, new Web API calls) and returns the snapshot. */
  sample(): Snapshot {
    this.#webApi.poll();
    this.#discord.record.poll();
    const stats = this.#bot.runtime.stats();
    const memory = process.memoryUsage();
    this.#samples += 1;
    this.#peakSampled = Math.max(this.#peakSampled, stats.detachedInFlight);
    this.#peakRss = Math.max(this.#peakRss, memory.rss);
    this.#peakHeap = Math.max(this.#peakHeap, memory.heapUsed);
    let busyCommands = 0;
    for (const record of this.#ledger.invocations.values()) {
      if (record.kind === 'command' && record.ackText === this.#busyText) busyCommands += 1;
    }
    const tally = this.#bot.tally;
    const busyPosts = this.#webApi.counters.busyPosts;
    return {
      elapsedMs: performance.now() - this.#started,
      phase: this.phase,
      sim: { ...this.#ledger.counters, redelivered: [...this.#ledger.counters.redelivered] },
      web: { ...this.#webApi.counters, busyPosts: { ...busyPosts } },
      retriesWaiting: this.#simulator.scheduler.scheduled,
      handled: {
        event: tally.handledCount('event'),
        command: tally.handledCount('command'),
        click: tally.handledCount('click'),
      },
      busyShown: { commands: busyCommands, clicks: busyPosts.click },
      lateBusy: { commands: busyPosts.command, unknown: busyPosts.unknown },
      inFlight: stats.detachedInFlight,
      handlersRunning: tally.allHandlers.running,
      handlersPeak: tally.allHandlers.peak,
      maxDetached: this.#bot.runtime.options.maxDetached,
      peakSampled: this.#peakSampled,
      samples: this.#samples,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      peakRssBytes: this.#peakRss,
      peakHeapUsedBytes: this.#peakHeap,
      discord: { ...this.#discord.record.counts(), handlersRunning: tally.discordHandlers.running },
    };
  }
}
