/**
 * The bot, without a server: one runtime, memory State, the Discord HTTP interactions adapter and
 * its handlers. `main.ts` serves it over node:http; the smoke tests serve it against a fake REST.
 */
import { createDiscordAdapter, type DiscordAdapter } from '@rt/adapter-discord';
import { createRuntime, type FetchHandler, type Observer, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import {
  ASK_COMMAND,
  FEEDBACK_COMMAND,
  FEEDBACK_MODAL,
  HELPFUL_BUTTON,
  TOPIC_OPTION,
} from './commands.js';
import { askCommand } from './handlers/ask.js';
import { feedbackCommand, feedbackSubmitted } from './handlers/feedback.js';
import { helpfulButton } from './handlers/helpful-button.js';
import { topicAutocomplete } from './handlers/topic-autocomplete.js';

/** What `createBot` needs. */
export interface BotOptions {
  /** The application's public key (Developer Portal → General Information). */
  readonly publicKey: string;
  readonly applicationId: string;
  /** The bot token. */
  readonly token: string;
  /** REST base URL; tests point it at a fake. Default Discord's. */
  readonly apiUrl?: string;
  /** How long `/ask` "thinks" before answering. Default 5 s (longer than Discord's 3 s, on purpose). */
  readonly askWorkMs?: number;
  /** Observers of the runtime (logging, metrics). Default none. */
  readonly observers?: readonly Observer[];
}

/** A constructed bot. */
export interface Bot {
  readonly runtime: Runtime;
  readonly discord: DiscordAdapter;
  /** Web-standard handler for the Interactions Endpoint URL. */
  readonly handler: FetchHandler;
  /** Shuts the runtime down, then closes the State. The HTTP server is the caller's. Idempotent. */
  close(): Promise<void>;
}

export function createBot(options: BotOptions): Bot {
  const state = createMemoryState();
  const discord = createDiscordAdapter({
    publicKey: options.publicKey,
    applicationId: options.applicationId,
    token: options.token,
    ...(options.apiUrl !== undefined ? { apiUrl: options.apiUrl } : {}),
    // A modal can only be the first answer: /feedback runs before the ack.
    syncCommands: [FEEDBACK_COMMAND],
    // Feedback thanks are for the user only; decided before the ack, as Discord requires.
    ephemeral: (event) => event.kind === 'form_submit',
  });
  const runtime = createRuntime({
    state,
    adapters: [discord],
    // Ack then work: Discord gets its answer within 3 s whatever the handlers do.
    dispatchMode: 'deferred',
    maxDetached: 256,
    observers: options.observers ?? [],
  });

  runtime.onCommand(ASK_COMMAND, askCommand(options.askWorkMs ?? 5000));
  runtime.onSuggestion(TOPIC_OPTION, topicAutocomplete);
  runtime.onAction(HELPFUL_BUTTON, helpfulButton);
  runtime.onCommand(FEEDBACK_COMMAND, feedbackCommand);
  runtime.onFormSubmit(FEEDBACK_MODAL, feedbackSubmitted);

  let closing: Promise<void> | undefined;
  return {
    runtime,
    discord,
    handler: discord.handler,
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
