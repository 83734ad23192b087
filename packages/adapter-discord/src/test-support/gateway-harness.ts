import type { CreateRuntimeOptions, Observation, RtEvent, Runtime, State } from '@rt/core';
import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { type AdapterNoticeObservation, observationLog } from '@rt/testing';
import {
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscord,
  type FakeDiscordGatewayOptions,
  type GatewayMessageOptions,
  startFakeDiscord,
} from '@rt/testing/discord';
import { createDiscordAdapter, type DiscordAdapter } from '../discord-adapter.js';
import type { DiscordGatewayOptions } from '../gateway/gateway-options.js';
import type { DiscordAdapterOptions } from '../options.js';

export const GATEWAY_BOT_TOKEN = 'gateway-test-token';

/** The real discord.js Client connected to the fakes, through an adapter on a real runtime. */
export interface GatewayHarness {
  readonly fake: FakeDiscord;
  readonly adapter: DiscordAdapter;
  readonly runtime: Runtime;
  readonly state: State;
  readonly observations: Observation[];
  /** Sends a MESSAGE_CREATE (built from `options`) over the fake gateway; returns the payload. */
  message(options?: GatewayMessageOptions): Record<string, unknown>;
  /** `adapter_notice` observations named `name`. */
  notices(name: string): AdapterNoticeObservation[];
  /** Shuts the runtime down (if the test did not) and closes the fakes. */
  close(): Promise<void>;
}

/** Options of `startGatewayHarness`. */
export interface GatewayHarnessOptions {
  readonly runtime?: Partial<Omit<CreateRuntimeOptions, 'state'>>;
  readonly adapter?: Partial<DiscordAdapterOptions>;
  readonly gateway?: DiscordGatewayOptions;
  readonly fakeGateway?: FakeDiscordGatewayOptions;
  /** Register handlers before the client connects. */
  readonly setup?: (runtime: Runtime) => void;
}

/** Starts the fakes, an adapter with `gateway` on, a runtime, and `runtime.start()`. */
export async function startGatewayHarness(
  options: GatewayHarnessOptions = {},
): Promise<GatewayHarness> {
  const fake = await startFakeDiscord({
    rest: { tokens: [GATEWAY_BOT_TOKEN] },
    gateway: { tokens: [GATEWAY_BOT_TOKEN], ...options.fakeGateway },
  });
  const log = observationLog();
  const adapter = createDiscordAdapter({
    publicKey: createDiscordSigner().publicKey,
    applicationId: DISCORD_TEST_IDS.applicationId,
    token: GATEWAY_BOT_TOKEN,
    apiUrl: fake.rest.url,
    gateway: { ...options.gateway },
    ...options.adapter,
  });
  const state = createMemoryState();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    observers: [log.observer],
    ...options.runtime,
  });
  options.setup?.(runtime);
  await runtime.start();
  return {
    fake,
    adapter,
    runtime,
    state,
    observations: log.observations,
    message(messageOptions) {
      const payload = buildGatewayMessage(messageOptions);
      fake.gateway.dispatch('MESSAGE_CREATE', payload);
      return payload;
    },
    notices: log.notices,
    async close() {
      await runtime.shutdown({ graceMs: 0 });
      await fake.close();
      await state.close();
    },
  };
}

/** Collects the events a handler saw, by id, for "handled exactly once" assertions. */
export function handledLog(): {
  readonly events: RtEvent[];
  ids(): string[];
  record(e: RtEvent): void;
} {
  const events: RtEvent[] = [];
  return {
    events,
    ids: () => events.map((event) => event.id),
    record: (event) => void events.push(event),
  };
}
