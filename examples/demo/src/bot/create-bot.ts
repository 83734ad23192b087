import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDiscordAdapter, type DiscordAdapter } from '@rt/adapter-discord';
import { createSlackAdapter, type SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Runtime, toNodeListener } from '@rt/core';
import { createMemoryState, type MemoryState } from '@rt/state-memory';
import { BotTally } from './bot-tally.js';
import { DISCORD_ADAPTER_NAME, registerHandlers } from './handlers.js';
import { probeState } from './probe-state.js';

/** The path of the Discord Interactions Endpoint on the bot's server. */
const DISCORD_PATH = '/discord/interactions';

/** Options of `startBot`. */
export interface BotOptions {
  readonly signingSecret: string;
  readonly botToken: string;
  /** The Web API base URL (the simulator's). */
  readonly apiUrl: string;
  readonly busyText: string;
  readonly maxDetached: number;
  /** The runtime's `detachTimeoutMs` (validated by `validateConfig`). */
  readonly detachTimeoutMs: number;
  readonly handlerMs: number;
  readonly seed: number;
  /**
   * Also serve Discord on the same runtime (one bound, one State): HTTP interactions at
   * `/discord/interactions` of the same server, messages over the gateway. The fake Discord's REST
   * URL (its `GET /gateway/bot` names the fake gateway) and the bot's credentials.
   */
  readonly discord?: {
    readonly apiUrl: string;
    readonly token: string;
    readonly applicationId: string;
    readonly publicKey: string;
  };
}

/**
 * A running bot: one runtime and one State with the Slack adapter (and the Discord adapter when
 * asked), and its HTTP server on 127.0.0.1.
 */
export interface DemoBot {
  /** Where Slack delivers (the adapter's Request URL). */
  readonly url: string;
  /** Where Discord POSTs interactions (the app's Interactions Endpoint URL), on the same server. */
  readonly discordUrl: string;
  readonly runtime: Runtime;
  readonly slack: SlackAdapter;
  /** The Discord adapter when `discord` was given; its gateway is connected by then. */
  readonly discord: DiscordAdapter | undefined;
  readonly tally: BotTally;
  /**
   * Shuts the runtime down (admission closes, running handlers get `graceMs`), waits for busy
   * signals in flight, closes the HTTP server and the State. Idempotent.
   */
  close(graceMs: number): Promise<void>;
}

/**
 * Starts the demo bot the way a bot author would deploy it: ONE runtime with deferred dispatch
 * ("ack then work"), a bounded number of detached handlers shared by every platform, one memory
 * State, the Slack adapter's web-standard handler (and the Discord adapter's, when `discord` is
 * given) behind one `node:http` server through `toNodeListener`, on 127.0.0.1 port 0. The Discord
 * gateway is connected by `runtime.start()` before this resolves.
 *
 * Strategy `concurrent` without a per-scope limit: every conversation is independent, so the
 * admission bound alone decides how many handlers run.
 */
export async function startBot(options: BotOptions): Promise<DemoBot> {
  const tally = new BotTally();
  const state: MemoryState = createMemoryState();
  const slack = createSlackAdapter({
    signingSecret: options.signingSecret,
    botToken: options.botToken,
    apiUrl: options.apiUrl,
    busyText: options.busyText,
    webClientOptions: { retryConfig: { retries: 0 } },
  });
  const discord =
    options.discord === undefined
      ? undefined
      : createDiscordAdapter({
          name: DISCORD_ADAPTER_NAME,
          applicationId: options.discord.applicationId,
          publicKey: options.discord.publicKey,
          botToken: options.discord.token,
          apiUrl: options.discord.apiUrl,
          busyText: options.busyText,
          gateway: { busySignal: 'reply' },
          // No retries: a failed reply is a failed handler the summary shows, not a hidden wait.
          restOptions: { retries: 0 },
        });
  const runtime = createRuntime({
    state: probeState(state, () => tally.probeAdmission()),
    adapters: discord === undefined ? [slack] : [slack, discord],
    dispatchMode: 'deferred',
    maxDetached: options.maxDetached,
    detachTimeoutMs: options.detachTimeoutMs,
    concurrency: 'concurrent',
    observers: [tally.observe],
  });
  tally.bind(runtime);
  registerHandlers(runtime, { slack, tally, handlerMs: options.handlerMs, seed: options.seed });

  const slackListener = toNodeListener(slack.handler);
  const discordListener = discord === undefined ? undefined : toNodeListener(discord.handler);
  // One server, two endpoints: what a bot on both platforms behind one load balancer does.
  const server: Server = createServer((req, res) => {
    if (discordListener !== undefined && req.url?.startsWith(DISCORD_PATH) === true) {
      discordListener(req, res);
      return;
    }
    slackListener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // Connects the Discord gateway (Slack over HTTP has nothing to start).
  await runtime.start();
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    discordUrl: `http://127.0.0.1:${port}${DISCORD_PATH}`,
    runtime,
    slack,
    discord,
    tally,
    close: (graceMs) => {
      closing ??= (async () => {
        // Closes admission on both platforms; the Discord gateway closes last (close frame 1000).
        await runtime.shutdown({ graceMs });
        await slack.drainFollowUps();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await state.close();
      })();
      return closing;
    },
  };
}
