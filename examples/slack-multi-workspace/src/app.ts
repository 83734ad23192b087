/**
 * The app: an installer (install page and OAuth redirect), an installation store, a Slack adapter
 * whose tokens come from the store, and one runtime, behind one `node:http` listener:
 * `/slack/events` to the adapter, `/slack/install` and `/slack/oauth_redirect` to the installer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSlackAdapter, type SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Observer, type Runtime, type State } from '@rt/core';
import {
  createInstallationTokens,
  createMemoryInstallationStore,
  createSlackInstaller,
  type InstallationStore,
  type SlackInstaller,
} from '@rt/slack-installs';
import { createMemoryState } from '@rt/state-memory';

export interface AppConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly signingSecret: string;
  /** Signs the OAuth state; at least 32 characters. */
  readonly stateSecret: string;
  /** The public origin the app is reached at (`https://bot.example.com`). */
  readonly publicUrl: string;
  /** Default: a memory store (give the Redis store in production). */
  readonly store?: InstallationStore;
  /** Default: a memory State (give `@rt/state-redis` with several instances). */
  readonly state?: State;
  /** Slack's Web API and authorize page (the fake's, offline). */
  readonly apiUrl?: string;
  readonly authorizationUrl?: string;
  readonly observers?: readonly Observer[];
}

export interface App {
  readonly runtime: Runtime;
  readonly adapter: SlackAdapter;
  readonly installer: SlackInstaller;
  readonly store: InstallationStore;
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  close(): Promise<void>;
}

export function createApp(config: AppConfig): App {
  const state = config.state ?? createMemoryState();
  const store = config.store ?? createMemoryInstallationStore();
  const observers = config.observers ?? [];
  const slackApi = config.apiUrl === undefined ? {} : { apiUrl: config.apiUrl };
  const installer = createSlackInstaller({
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    stateSecret: config.stateSecret,
    state,
    store,
    scopes: ['app_mentions:read', 'chat:write'],
    redirectUri: new URL('/slack/oauth_redirect', config.publicUrl).href,
    ...(config.authorizationUrl === undefined ? {} : { authorizationUrl: config.authorizationUrl }),
    ...slackApi,
    observers,
  });
  const installations = createInstallationTokens({
    store,
    state,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    ...slackApi,
    observers,
  });
  const adapter = createSlackAdapter({
    signingSecret: config.signingSecret,
    installations,
    ...slackApi,
  });
  const runtime = createRuntime({ state, adapters: [adapter], observers });
  runtime.onMention(async (ctx) => {
    const team = (ctx.event.payload as { team_id?: string }).team_id;
    await ctx.reply(`Hello from rt, installed in ${team ?? 'this workspace'}.`);
  });
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if ((req.url ?? '').startsWith('/slack/events')) adapter.nodeListener(req, res);
    else installer.nodeListener(req, res);
  };
  return {
    runtime,
    adapter,
    installer,
    store,
    listener,
    close: async () => {
      await runtime.shutdown({ graceMs: 5000 });
      await state.close();
    },
  };
}
