/**
 * The assistant, without a server: one runtime on the `queue` strategy, one memory State, the
 * Slack HTTP adapter and the Discord adapter (gateway for messages and mentions), and one handler
 * for both platforms that streams a language model's answer. `main.ts` serves it; `offline.ts`
 * and the tests run it against the fakes of `@rt/testing`.
 */
import { createDiscordAdapter, type DiscordAdapter } from '@rt/adapter-discord';
import { createSlackAdapter, type SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type FetchHandler, type Observer, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import type { LanguageModel } from 'ai';
import { answerWith } from './handlers/answer.js';

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
  /** The model answers come from (`model.ts`: OpenAI, or the AI SDK's mock model). */
  readonly model: LanguageModel;
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
   * Shuts the runtime down (admission closes, running streams get the grace period and then end
   * with the interrupted marker, the gateway closes last) and then closes the State. Idempotent.
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
    gateway: options.discord.gateway === false ? false : { busySignal: 'reply' },
  });
  const runtime = createRuntime({
    state,
    adapters: [slack, discord],
    dispatchMode: 'deferred',
    // One answer per thread at a time; what arrives meanwhile waits, the newest message wins and
    // its run sees the others in ctx.skipped (docs/contract.md §5). `queue` is the default:
    // spelled out because the handler relies on it.
    concurrency: 'queue',
    maxDetached: 256,
    dedupeTtlMs: 60 * 60 * 1000,
    observers: options.observers ?? [],
  });

  const answer = answerWith({ model: options.model });
  runtime.onMention(answer); // subscribes the thread, then answers
  runtime.onSubscribedMessage(answer); // later messages in the thread, without a mention

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
