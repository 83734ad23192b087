/**
 * The bot: one runtime, memory State, the Slack adapter receiving over Socket Mode, two handlers.
 * `main.ts` runs it; the smoke test runs it against the fakes of `@rt/testing/slack`.
 */
import { createSlackAdapter, type SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Observer, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { onMention } from './handlers/mention.js';
import { PING_COMMAND, pingCommand } from './handlers/ping-command.js';

/** What `createBot` needs. */
export interface BotOptions {
  /** App-level token (`xapp-...`). */
  readonly appToken: string;
  /** Bot token (`xoxb-...`). */
  readonly botToken: string;
  /** Web API base URL; default Slack's. */
  readonly apiUrl?: string;
  /** Base URL of `apps.connections.open`; default `apiUrl`. */
  readonly socketApiUrl?: string;
  /** Observers of the runtime (logging, metrics). Default none. */
  readonly observers?: readonly Observer[];
}

/** A constructed bot. */
export interface Bot {
  readonly runtime: Runtime;
  readonly slack: SlackAdapter;
  /** Opens the Socket Mode connection; resolves once Slack said hello. */
  start(): Promise<void>;
  /**
   * Shuts the runtime down (busy acks out, events left for Slack to redeliver elsewhere, socket
   * closed, running handlers drained), then closes the State. Idempotent.
   */
  close(): Promise<void>;
}

export function createBot(options: BotOptions): Bot {
  const state = createMemoryState();
  const socketApiUrl = options.socketApiUrl ?? options.apiUrl;
  const slack = createSlackAdapter({
    botToken: options.botToken,
    ...(options.apiUrl !== undefined ? { apiUrl: options.apiUrl } : {}),
    socketMode: {
      appToken: options.appToken,
      ...(socketApiUrl !== undefined ? { apiUrl: socketApiUrl } : {}),
    },
    // `/rt-ping` answers in its acknowledgement.
    dispatchModes: { slash_command: 'sync' },
  });
  const runtime = createRuntime({
    state,
    adapters: [slack],
    dispatchMode: 'deferred',
    maxDetached: 256,
    observers: options.observers ?? [],
  });

  runtime.onMention(onMention);
  runtime.onCommand(PING_COMMAND, pingCommand(runtime));

  let closing: Promise<void> | undefined;
  return {
    runtime,
    slack,
    start: () => runtime.start(),
    close: () => {
      closing ??= (async () => {
        try {
          await runtime.shutdown({ graceMs: 10_000 });
        } finally {
          await state.close();
        }
      })();
      return closing;
    },
  };
}
