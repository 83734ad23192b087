/**
 * The bot, without a server: one runtime, one memory State, the Slack HTTP adapter and the Discord
 * adapter (gateway for messages, mentions and gateway interactions; HTTP for an Interactions
 * Endpoint URL), and one set of handlers registered once for both. `main.ts` serves it; the smoke
 * tests and `offline.ts` run it against the fakes.
 */
import { createDiscordAdapter, type DiscordAdapter } from '@rt/adapter-discord';
import { createSlackAdapter, type SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type FetchHandler, type Observer, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { onFeedback, onFollowUp } from './handlers/feedback.js';
import {
  FEEDBACK_COMMAND,
  FEEDBACK_FORM,
  onFeedbackCommand,
  onFeedbackSubmit,
} from './handlers/feedback-form.js';
import { FEEDBACK_ACTION, FOLLOW_UP_ACTION, onMention } from './handlers/mention.js';
import { followThreads } from './handlers/running-summary.js';
import { STATUS_COMMAND, statusCommand } from './handlers/status-command.js';

/** What `createBot` needs. */
export interface BotOptions {
  readonly slack: {
    readonly signingSecret: string;
    readonly botToken: string;
    /** Web API base URL; tests point it at a fake. Default Slack's. */
    readonly apiUrl?: string;
  };
  readonly discord: {
    readonly publicKey: string;
    readonly applicationId: string;
    readonly token: string;
    /** REST base URL (the gateway URL comes from its `GET /gateway/bot`). Default Discord's. */
    readonly apiUrl?: string;
    /** Connect the gateway at `start()`. Default `true`. */
    readonly gateway?: boolean;
  };
  /** Observers of the runtime (logging, metrics). Default none. */
  readonly observers?: readonly Observer[];
}

/** A constructed bot. */
export interface Bot {
  readonly runtime: Runtime;
  readonly slack: SlackAdapter;
  readonly discord: DiscordAdapter;
  /** Web-standard handlers: Slack's Request URL and Discord's Interactions Endpoint URL. */
  readonly handlers: { readonly slack: FetchHandler; readonly discord: FetchHandler };
  /** `runtime.start()`: connects the Discord gateway (resolves once it is ready). */
  start(): Promise<void>;
  /**
   * Shuts the runtime down (admission closes on both platforms, running handlers drain, the gateway
   * closes last) and then closes the State. HTTP servers are the caller's. Idempotent.
   */
  close(): Promise<void>;
}

export function createBot(options: BotOptions): Bot {
  const state = createMemoryState();
  const slack = createSlackAdapter({
    signingSecret: options.slack.signingSecret,
    botToken: options.slack.botToken,
    ...(options.slack.apiUrl !== undefined ? { apiUrl: options.slack.apiUrl } : {}),
  });
  const discord = createDiscordAdapter({
    publicKey: options.discord.publicKey,
    applicationId: options.discord.applicationId,
    botToken: options.discord.token,
    ...(options.discord.apiUrl !== undefined ? { apiUrl: options.discord.apiUrl } : {}),
    // Refused messages get a visible busy reply; alert when the gateway stays down for 30 s.
    gateway: options.discord.gateway === false ? false : { busySignal: 'reply' },
    // A Discord modal can only be a command's first answer: this command runs before it.
    syncCommands: [FEEDBACK_COMMAND],
  });
  const runtime = createRuntime({
    // One State for both platforms: dedupe marks and locks are namespaced by adapter and tenant.
    state,
    adapters: [slack, discord],
    // Ack then work on both platforms.
    dispatchMode: 'deferred',
    // One bound for the whole bot: a flood on one platform is refused visibly on that platform.
    maxDetached: 256,
    dedupeTtlMs: 60 * 60 * 1000,
    observers: options.observers ?? [],
  });

  // The same handlers answer on both platforms: routes match the neutral kinds (docs/events.md),
  // and handlers speak through ctx only (docs/messages.md).
  runtime.onMention(onMention);
  runtime.onAction(FEEDBACK_ACTION, onFeedback);
  runtime.onAction(FOLLOW_UP_ACTION, onFollowUp);
  runtime.onCommand(STATUS_COMMAND, statusCommand(runtime));
  runtime.onCommand(FEEDBACK_COMMAND, onFeedbackCommand);
  runtime.onFormSubmit(FEEDBACK_FORM, onFeedbackSubmit);
  followThreads(runtime); // docs/conversations.md: subscribe at a mention, keep a running summary

  let closing: Promise<void> | undefined;
  return {
    runtime,
    slack,
    discord,
    handlers: { slack: slack.handler, discord: discord.handler },
    start: () => runtime.start(),
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
