import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackAdapter, type SlackAdapter, type SlackAdapterOptions } from '@rt/adapter-slack';
import {
  type CreateRuntimeOptions,
  createRuntime,
  type FetchHandler,
  type Runtime,
  type State,
  toNodeListener,
} from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { type FakeSlackApi, type FakeSlackApiOptions, startFakeSlackApi } from '@rt/testing/slack';
import { BED_SECRET, BED_TOKEN } from './bed-secrets.js';
import { EmissionLog } from './emission-log.js';
import { InFlightSampler } from './in-flight-sampler.js';

export { BED_SECRET, BED_TOKEN };

/** A Slack bot served over real HTTP on loopback, as Slack would reach it. */
export interface SlackBed {
  /** `http://127.0.0.1:<port>/slack/events`. */
  readonly url: string;
  readonly adapter: SlackAdapter;
  readonly runtime: Runtime;
  readonly state: State;
  /** The local Web API the adapter's busy signals and handlers' calls reach. */
  readonly webApi: FakeSlackApi;
  readonly log: EmissionLog;
  readonly sampler: InFlightSampler;
  /** Errors `toNodeListener` reported (a handler that threw): must stay empty. */
  readonly listenerErrors: unknown[];
  /** Shuts the runtime down (if not yet), drains follow-ups, closes server, Web API and State. */
  close(): Promise<void>;
}

/** Options of `startSlackBed`. */
export interface SlackBedOptions {
  readonly runtime?: Partial<Omit<CreateRuntimeOptions, 'state' | 'adapters'>>;
  readonly adapter?: Partial<SlackAdapterOptions>;
  /** Default: a fresh memory State (closed by `close()` either way). */
  readonly state?: State;
  /** Sample the hot installation's ceiling (`slack:<tenant>`). */
  readonly hot?: { readonly tenant: string; readonly ceiling: number };
  /** Options of the fake Web API (its per-method `rateLimits`, say). */
  readonly webApi?: FakeSlackApiOptions;
  /** Wraps the adapter's handler before it is served (to count what it reads, say). */
  readonly wrapHandler?: (handler: FetchHandler) => FetchHandler;
}

/**
 * Starts a Slack adapter behind `toNodeListener` on a `node:http` server bound to 127.0.0.1 port
 * 0, a runtime on `state` whose observers are the emission log and the in-flight sampler, and a
 * fake Web API the adapter calls.
 */
export async function startSlackBed(options: SlackBedOptions = {}): Promise<SlackBed> {
  const webApi = await startFakeSlackApi(options.webApi);
  const log = new EmissionLog();
  const sampler = new InFlightSampler(
    options.hot === undefined
      ? undefined
      : { key: `slack:${options.hot.tenant}`, ceiling: options.hot.ceiling },
  );
  const adapter = createSlackAdapter({
    signingSecret: BED_SECRET,
    botToken: BED_TOKEN,
    apiUrl: webApi.url,
    webClientOptions: { retryConfig: { retries: 0 } },
    ...options.adapter,
  } as SlackAdapterOptions);
  const state = options.state ?? createMemoryState();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    ...options.runtime,
    observers: [log.observer, sampler.observer, ...(options.runtime?.observers ?? [])],
  });
  sampler.bind(runtime);
  const listenerErrors: unknown[] = [];
  const server: Server = createServer(
    toNodeListener(options.wrapHandler?.(adapter.handler) ?? adapter.handler, {
      onError: (error) => listenerErrors.push(error),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    adapter,
    runtime,
    state,
    webApi,
    log,
    sampler,
    listenerErrors,
    close: () => {
      closed ??= (async () => {
        await runtime.shutdown({ graceMs: 0, abandonAfterMs: 0 });
        await adapter.drainFollowUps();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await webApi.close();
        await state.close();
      })();
      return closed;
    },
  };
}
