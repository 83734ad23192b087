import { createSlackAdapter, type SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Observation, type Runtime, type State } from '@rt/core';
import { BotTally, type HandledKind } from '../bot/bot-tally.js';
import { registerHandlers } from '../bot/handlers.js';
import { probeState } from '../bot/probe-state.js';

/**
 * How long the bot's Slack options load takes: one in flight at the deploy holds the draining
 * runtime's socket open (its ack is owed) while envelopes keep arriving. Well inside Slack's 3 s.
 */
export const SLOW_OPTIONS_MS = 400;

/** Options of `startSocketBot`. */
export interface SocketBotOptions {
  /** `A` or `B`: the adapter's instance in the deploy. */
  readonly label: string;
  readonly botToken: string;
  /** The Web API base URL (the simulator's). */
  readonly apiUrl: string;
  /** Base URL of `apps.connections.open` (the fake Socket Mode's). */
  readonly socketApiUrl: string;
  /** Shared by both instances, as Redis would be across processes. */
  readonly state: State;
  readonly busyText: string;
  readonly maxDetached: number;
  readonly detachTimeoutMs: number;
  readonly handlerMs: number;
  readonly seed: number;
}

/** One instance of the bot, receiving over Socket Mode. */
export interface SocketBot {
  readonly label: string;
  readonly runtime: Runtime;
  readonly slack: SlackAdapter;
  readonly tally: BotTally;
  /** Event ids this instance refused because it was shutting down. */
  readonly refusedAtShutdown: Set<string>;
  /** Slash commands this instance refused because it was shutting down. */
  refusedCommandsAtShutdown: number;
  /** Resolves once a Slack options load (`block_suggestion`) has started on this instance. */
  readonly optionsLoadStarted: Promise<void>;
  /** `socket_connected` notices: how often this instance opened a connection. */
  connections: number;
}

/**
 * Starts one bot instance the way a bot author would run it over Socket Mode: the same handlers
 * and bound as the HTTP run, the Slack adapter with `socketMode` (no public URL, no signing
 * secret), `runtime.start()` resolving once the fake Slack said hello.
 */
export async function startSocketBot(options: SocketBotOptions): Promise<SocketBot> {
  const tally = new BotTally();
  const refusedAtShutdown = new Set<string>();
  const slack = createSlackAdapter({
    name: 'slack',
    botToken: options.botToken,
    apiUrl: options.apiUrl,
    busyText: options.busyText,
    webClientOptions: { retryConfig: { retries: 0 } },
    socketMode: {
      appToken: 'xapp-demo-token',
      apiUrl: options.socketApiUrl,
      reconnectMinDelayMs: 50,
      reconnectMaxDelayMs: 500,
    },
  });
  const bot = { connections: 0, refusedCommandsAtShutdown: 0 };
  const watch = (observation: Observation) => {
    if (
      observation.type === 'admission_rejected' &&
      observation.reason === 'shutdown' &&
      observation.event.shape === 'event_callback'
    ) {
      refusedAtShutdown.add(observation.event.id);
    }
    if (
      observation.type === 'admission_rejected' &&
      observation.reason === 'shutdown' &&
      observation.event.shape === 'slash_command'
    ) {
      bot.refusedCommandsAtShutdown += 1;
    }
    if (observation.type === 'adapter_notice' && observation.name === 'socket_connected') {
      bot.connections += 1;
    }
  };
  const runtime = createRuntime({
    state: probeState(options.state, () => tally.probeAdmission()),
    adapters: [slack],
    dispatchMode: 'deferred',
    maxDetached: options.maxDetached,
    detachTimeoutMs: options.detachTimeoutMs,
    concurrency: 'concurrent',
    observers: [tally.observe, watch],
  });
  tally.bind(runtime);
  let markOptionsLoad!: () => void;
  const optionsLoadStarted = new Promise<void>((resolve) => {
    markOptionsLoad = resolve;
  });
  registerHandlers(runtime, {
    slack,
    tally,
    handlerMs: options.handlerMs,
    seed: options.seed,
    slackOptionsMs: SLOW_OPTIONS_MS,
    onSlackOptions: () => markOptionsLoad(),
  });
  await runtime.start();
  return Object.assign(bot, {
    label: options.label,
    runtime,
    slack,
    tally,
    refusedAtShutdown,
    optionsLoadStarted,
  });
}

const KINDS: readonly HandledKind[] = ['event', 'command', 'click'];

/** Handlers of `bot` stopped by its shutdown before they answered (each said so), all kinds. */
export function interruptedOf(bot: SocketBot): number {
  return KINDS.reduce((total, kind) => total + bot.tally.interruptedCount(kind), 0);
}
