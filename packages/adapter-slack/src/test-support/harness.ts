import type { CreateRuntimeOptions, Observation, Runtime, State } from '@rt/core';
import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { observationLog } from '@rt/testing';
import {
  closeHttpTransports,
  type FakeRuntimeHandle,
  fakeRuntimeHandle,
  HTTP_TRANSPORTS,
  type HttpTransport,
} from '@rt/testing/adapter';
import {
  createSlackSigner,
  type FakeSlackApi,
  type SlackTestPayload,
  startFakeSlackApi,
} from '@rt/testing/slack';
import type { SlackAdapterOptions } from '../options.js';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';

export const SECRET = 'test-signing-secret';
export const BOT_TOKEN = 'xoxb-test-token';

/** A fake Slack, an adapter pointed at it and a real runtime on a memory State. */
export interface Harness {
  readonly fake: FakeSlackApi;
  readonly adapter: SlackAdapter;
  readonly runtime: Runtime;
  /** The State the runtime uses: `options.state`, else a new memory State. */
  readonly state: State;
  readonly observations: Observation[];
  /** Sends `payload` signed with the test secret over the harness's transport. */
  send(payload: SlackTestPayload, headers?: Record<string, string>): Promise<Response>;
  /** Sends `request` as is over the harness's transport. */
  serve(request: Request): Promise<Response>;
  /** Resolves once an observation matching `predicate` was emitted. */
  observed(predicate: (observation: Observation) => boolean): Promise<Observation>;
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    runtime?: Partial<Omit<CreateRuntimeOptions, 'state'>>;
    adapter?: Partial<SlackAdapterOptions>;
    state?: State;
    /** The HTTP shell requests go through (`HTTP_TRANSPORTS`). Default: the web handler. */
    transport?: HttpTransport;
  } = {},
): Promise<Harness> {
  const fake = await startFakeSlackApi();
  const log = observationLog();
  const adapter = createSlackAdapter({
    signingSecret: SECRET,
    ...(options.adapter?.tokenResolver === undefined && options.adapter?.installations === undefined
      ? { botToken: BOT_TOKEN }
      : {}),
    apiUrl: fake.url,
    webClientOptions: { retryConfig: { retries: 0 } },
    ...options.adapter,
  } as SlackAdapterOptions);
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
    adapter,
    runtime,
    state,
    observations: log.observations,
    send: (payload, headers) =>
      serve(createSlackSigner(SECRET).request(payload, headers ? { headers } : {})),
    serve,
    observed: (predicate) => log.observed(predicate),
    close: async () => {
      await runtime.shutdown({ graceMs: 0 });
      await adapter.drainFollowUps();
      await closeHttpTransports(adapter);
      await fake.close();
      await state.close();
    },
  };
}

/** The fixed clock of unit tests that sign requests themselves (epoch ms, and seconds). */
export const NOW_MS = 1_750_000_000_000;
export const NOW_S = NOW_MS / 1000;

/**
 * An adapter on the fixed clock `NOW_MS`, accepting `SECRET` (and a rotated secret), attached to a
 * recording `fakeRuntimeHandle` instead of a real runtime.
 */
export function unitAdapter(runtime = fakeRuntimeHandle()): {
  adapter: SlackAdapter;
  runtime: FakeRuntimeHandle;
} {
  const adapter = createSlackAdapter({
    signingSecret: ['rotated-new-secret', SECRET],
    botToken: 'xoxb-unit',
    clock: () => NOW_MS,
  });
  adapter.attach(runtime);
  return { adapter, runtime };
}
