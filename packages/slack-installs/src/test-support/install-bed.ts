/**
 * Test helper: the whole install setup on loopback: a fake Slack with OAuth, an installer and a
 * Slack adapter fed by the installation store, one runtime on a memory State, all behind one
 * `node:http` server (`/slack/events` to the adapter, the rest to the installer).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackAdapter, type SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Observation, type Observer, type Runtime, type State } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { observationLog } from '@rt/testing';
import {
  createSlackSigner,
  type FakeSlackApi,
  type FakeSlackOAuthOptions,
  type SlackTestPayload,
  startFakeSlackApi,
} from '@rt/testing/slack';
import type { SlackInstallerOptions } from '../oauth/installer-options.js';
import { createSlackInstaller, type SlackInstaller } from '../oauth/slack-installer.js';
import type { InstallationStore } from '../store/installation-store.js';
import { createMemoryInstallationStore } from '../store/memory-store.js';
import {
  createInstallationTokens,
  type InstallationTokens,
} from '../tokens/installation-tokens.js';
import type { InstallationTokensOptions } from '../tokens/token-options.js';

export const CLIENT_ID = '1111.2222';
export const CLIENT_SECRET = 'bed-client-secret-0f9e8d7c6b5a4f3e';
export const STATE_SECRET = 'bed-state-secret-3a1f5c7e9b2d4f6a8c0e1b3d5f7a9c1e';
export const SIGNING_SECRET = 'bed-signing-secret-7c5a3e1f9d8b';

export const WORKSPACES = Object.freeze([
  { teamId: 'T1', teamName: 'Team One' },
  { teamId: 'T2', teamName: 'Team Two' },
  {
    teamId: 'T3',
    teamName: 'Org primary',
    enterpriseId: 'E1',
    enterpriseName: 'Org One',
    isEnterpriseInstall: true,
  },
]);

export interface InstallBed {
  readonly fake: FakeSlackApi;
  readonly state: State;
  readonly store: InstallationStore;
  readonly installer: SlackInstaller;
  readonly tokens: InstallationTokens;
  readonly adapter: SlackAdapter;
  readonly runtime: Runtime;
  readonly observations: readonly Observation[];
  /** `http://127.0.0.1:<port>` of the app server. */
  readonly origin: string;
  /** Sends a signed Events API / command payload to the app's `/slack/events`. */
  send(payload: SlackTestPayload): Promise<Response>;
  observed(predicate: (o: Observation) => boolean): Promise<Observation>;
  close(): Promise<void>;
}

export interface InstallBedOptions {
  readonly store?: InstallationStore;
  readonly state?: State;
  readonly oauth?: Partial<FakeSlackOAuthOptions>;
  readonly installer?: Partial<SlackInstallerOptions>;
  readonly tokens?: Partial<InstallationTokensOptions>;
  /** More observers of the installer, the token source and the runtime (a secret scan's). */
  readonly observers?: readonly Observer[];
}

export async function startInstallBed(options: InstallBedOptions = {}): Promise<InstallBed> {
  const fake = await startFakeSlackApi({
    oauth: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      workspaces: WORKSPACES,
      ...options.oauth,
    },
  });
  const state = options.state ?? createMemoryState();
  const store = options.store ?? createMemoryInstallationStore();
  const log = observationLog();
  const observers = [log.observer, ...(options.observers ?? [])];
  let route: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => route?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const installer = createSlackInstaller({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    stateSecret: STATE_SECRET,
    state,
    store,
    scopes: ['chat:write', 'app_mentions:read'],
    redirectUri: `${origin}/slack/oauth_redirect`,
    authorizationUrl: fake.oauth?.authorizeUrl,
    apiUrl: fake.url,
    observers,
    ...options.installer,
  });
  const tokens = createInstallationTokens({
    store,
    state,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    apiUrl: fake.url,
    observers,
    ...options.tokens,
  });
  const adapter = createSlackAdapter({
    signingSecret: SIGNING_SECRET,
    installations: tokens,
    apiUrl: fake.url,
    webClientOptions: { retryConfig: { retries: 0 } },
  });
  const runtime = createRuntime({ state, adapters: [adapter], observers });
  route = (req, res) => {
    if ((req.url ?? '').startsWith('/slack/events')) adapter.nodeListener(req, res);
    else installer.nodeListener(req, res);
  };
  return {
    fake,
    state,
    store,
    installer,
    tokens,
    adapter,
    runtime,
    observations: log.observations,
    origin,
    send: (payload) =>
      fetch(createSlackSigner(SIGNING_SECRET).request(payload, { url: `${origin}/slack/events` })),
    observed: (predicate) => log.observed(predicate),
    close: async () => {
      await runtime.shutdown({ graceMs: 0 });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fake.close();
      await state.close();
    },
  };
}
