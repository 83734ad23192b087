/**
 * The bot, without a server: one runtime, memory State, the Slack HTTP adapter and three handlers.
 * `main.ts` serves it over node:http; the smoke test serves it against a fake Slack.
 */
import { createSlackAdapter, type SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type FetchHandler, type Observer, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { onMention, THANKS_ACTION_ID } from './handlers/mention.js';
import { STATUS_COMMAND, statusCommand } from './handlers/status-command.js';
import { onThanks } from './handlers/thanks-button.js';

/** What `createBot` needs. */
export interface BotOptions {
  /** The Slack app's signing secret. */
  readonly signingSecret: string;
  /** The bot token (`xoxb-...`). */
  readonly botToken: string;
  /** Web API base URL; tests point it at a fake. Default Slack's. */
  readonly apiUrl?: string;
  /** Observers of the runtime (logging, metrics). Default none. */
  readonly observers?: readonly Observer[];
}

/** A constructed bot. */
export interface Bot {
  readonly runtime: Runtime;
  readonly slack: SlackAdapter;
  /** Web-standard handler for Slack's Request URL (events, commands and interactivity alike). */
  readonly handler: FetchHandler;
  /**
   * Shuts the runtime down (admission closes, running handlers drain) and then closes the State.
   * The HTTP server is the caller's to close. Idempotent.
   */
  close(): Promise<void>;
}

export function createBot(options: BotOptions): Bot {
  const state = createMemoryState();
  const slack = createSlackAdapter({
    signingSecret: options.signingSecret,
    botToken: options.botToken,
    ...(options.apiUrl !== undefined ? { apiUrl: options.apiUrl } : {}),
  });
  const runtime = createRuntime({
    state,
    adapters: [slack],
    // Ack then work: Slack gets its 200 within its 3 s budget whatever the handlers do.
    dispatchMode: 'deferred',
    // One instance: the bound on deliveries held after the ack (see the README on sizing it).
    maxDetached: 256,
    // Default strategy `queue`: a mention in a busy thread waits its turn; it is never dropped.
    // Slack redelivers for about 6 minutes; keep marks an hour (raise to 24 h with Delayed Events).
    dedupeTtlMs: 60 * 60 * 1000,
    observers: options.observers ?? [],
  });

  runtime.onMention(onMention);
  runtime.onCommand(STATUS_COMMAND, statusCommand(runtime));
  runtime.onAction(THANKS_ACTION_ID, onThanks);

  let closing: Promise<void> | undefined;
  return {
    runtime,
    slack,
    handler: slack.handler,
    close: () => {
      closing ??= (async () => {
        try {
          await runtime.shutdown();
        } finally {
          await state.close();
        }
      })();
      return closing;
    },
  };
}
