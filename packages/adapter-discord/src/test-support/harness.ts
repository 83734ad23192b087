import type { CreateRuntimeOptions, Observation, Runtime, State } from '@rt/core';
import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { type AdapterNoticeObservation, observationLog } from '@rt/testing';
import { closeHttpTransports, HTTP_TRANSPORTS, type HttpTransport } from '@rt/testing/adapter';
import {
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type DiscordRequestOptions,
  type DiscordSigner,
  type FakeDiscordRest,
  startFakeDiscordRest,
} from '@rt/testing/discord';
import { createDiscordAdapter, type DiscordAdapter } from '../discord-adapter.js';
import type { DiscordAdapterOptions } from '../options.js';

export const BOT_TOKEN = 'discord-bot-token';

/** A fake Discord REST, an adapter pointed at it, a signer for its key and a real runtime. */
export interface Harness {
  readonly fake: FakeDiscordRest;
  readonly signer: DiscordSigner;
  readonly adapter: DiscordAdapter;
  readonly runtime: Runtime;
  readonly state: State;
  readonly observations: Observation[];
  /**
   * Sends `payload` signed with the adapter's key over the harness's transport (a string as the
   * raw body); the fake learns the interaction's channel first.
   */
  send(payload: unknown, options?: DiscordRequestOptions): Promise<Response>;
  /** Sends `request` as is over the harness's transport. */
  serve(request: Request): Promise<Response>;
  /** `adapter_notice` observations named `name`. */
  notices(name: string): AdapterNoticeObservation[];
  close(): Promise<void>;
}

/** Options of `startHarness`. */
export interface HarnessOptions {
  readonly runtime?: Partial<Omit<CreateRuntimeOptions, 'state'>>;
  readonly adapter?: Partial<DiscordAdapterOptions>;
  readonly state?: State;
  /** Sign with this key pair instead of a fresh one (bots that must accept the same requests). */
  readonly signer?: DiscordSigner;
  /** The HTTP shell requests go through (`HTTP_TRANSPORTS`). Default: the web handler. */
  readonly transport?: HttpTransport;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = await startFakeDiscordRest({ tokens: [BOT_TOKEN] });
  const signer = options.signer ?? createDiscordSigner();
  const log = observationLog();
  const adapter = createDiscordAdapter({
    publicKey: signer.publicKey,
    applicationId: DISCORD_TEST_IDS.applicationId,
    botToken: BOT_TOKEN,
    apiUrl: fake.url,
    ...options.adapter,
  });
  const state = options.state ?? createMemoryState();
  const transport = options.transport ?? HTTP_TRANSPORTS[0]!;
  const serve = (request: Request) => transport.serve(adapter)(request);
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    observers: [log.observer],
    ...options.runtime,
  });
  return {
    fake,
    signer,
    adapter,
    runtime,
    state,
    observations: log.observations,
    send(payload, requestOptions) {
      if (typeof payload === 'object' && payload !== null && 'token' in payload) {
        fake.knowInteraction(payload as { token: string; channel_id?: unknown });
      }
      return serve(signer.request(payload, requestOptions));
    },
    serve,
    notices: log.notices,
    async close() {
      await runtime.shutdown({ graceMs: 0 });
      await closeHttpTransports(adapter);
      await fake.close();
      await state.close();
    },
  };
}
