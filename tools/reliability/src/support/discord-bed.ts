import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createDiscordAdapter,
  type DiscordAdapter,
  type DiscordAdapterOptions,
} from '@rt/adapter-discord';
import { type CreateRuntimeOptions, createRuntime, type Runtime, toNodeListener } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import {
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type DiscordSigner,
  type FakeDiscordRest,
  type FakeDiscordRestOptions,
  startFakeDiscordRest,
} from '@rt/testing/discord';
import { EmissionLog } from './emission-log.js';
import { InFlightSampler } from './in-flight-sampler.js';

/** The Discord bot token of every bed: long and unique, so the secret scan cannot miss it. */
export const DISCORD_BED_TOKEN = 'discord-reliability-bot-token-3b7e9d1f5a';

/** A Discord interactions bot served over real HTTP on loopback, as Discord would reach it. */
export interface DiscordBed {
  /** `http://127.0.0.1:<port>/interactions`. */
  readonly url: string;
  readonly signer: DiscordSigner;
  readonly adapter: DiscordAdapter;
  readonly runtime: Runtime;
  readonly rest: FakeDiscordRest;
  readonly log: EmissionLog;
  readonly sampler: InFlightSampler;
  readonly listenerErrors: unknown[];
  close(): Promise<void>;
}

/**
 * Starts a Discord adapter (a fresh Ed25519 key) behind `toNodeListener` on 127.0.0.1 port 0,
 * a runtime on a memory State observed by the emission log and the in-flight sampler, and a fake
 * Discord REST for follow-ups.
 */
export async function startDiscordBed(
  options: {
    readonly runtime?: Partial<Omit<CreateRuntimeOptions, 'state' | 'adapters'>>;
    readonly adapter?: Partial<DiscordAdapterOptions>;
    readonly hot?: { readonly tenant: string; readonly ceiling: number };
    /** Options of the fake REST (its `messageRate`, say); it accepts the bed's token only. */
    readonly rest?: Omit<FakeDiscordRestOptions, 'tokens'>;
  } = {},
): Promise<DiscordBed> {
  const rest = await startFakeDiscordRest({ ...options.rest, tokens: [DISCORD_BED_TOKEN] });
  const signer = createDiscordSigner();
  const log = new EmissionLog();
  const sampler = new InFlightSampler(
    options.hot === undefined
      ? undefined
      : { key: `discord:${options.hot.tenant}`, ceiling: options.hot.ceiling },
  );
  const adapter = createDiscordAdapter({
    publicKey: signer.publicKey,
    applicationId: DISCORD_TEST_IDS.applicationId,
    token: DISCORD_BED_TOKEN,
    apiUrl: rest.url,
    ...options.adapter,
  });
  const state = createMemoryState();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    ...options.runtime,
    observers: [log.observer, sampler.observer],
  });
  sampler.bind(runtime);
  const listenerErrors: unknown[] = [];
  const server: Server = createServer(
    toNodeListener(adapter.handler, { onError: (error) => listenerErrors.push(error) }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/interactions`,
    signer,
    adapter,
    runtime,
    rest,
    log,
    sampler,
    listenerErrors,
    close: () => {
      closed ??= (async () => {
        await runtime.shutdown({ graceMs: 0, abandonAfterMs: 0 });
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await rest.close();
        await state.close();
      })();
      return closed;
    },
  };
}
