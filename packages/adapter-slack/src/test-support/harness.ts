import type { CreateRuntimeOptions, Observation, Runtime, RuntimeHandle, State } from '@rt/core';
import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import {
  type FakeSlackApi,
  type SlackTestPayload,
  signedSlackRequest,
  startFakeSlackApi,
} from '@rt/testing/slack';
import type { SlackAdapterOptions } from '../options.js';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';

export const SECRET = 'test-signing-secret';
export const BOT_TOKEN = 'xoxb-test-token';

/** A promise with its resolvers, to hold a handler until a test lets it go. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A fake Slack, an adapter pointed at it and a real runtime on a memory State. */
export interface Harness {
  readonly fake: FakeSlackApi;
  readonly adapter: SlackAdapter;
  readonly runtime: Runtime;
  readonly observations: Observation[];
  /** Sends `payload` signed with the test secret through the adapter's handler. */
  send(payload: SlackTestPayload, headers?: Record<string, string>): Promise<Response>;
  /** Resolves once an observation matching `predicate` was emitted. */
  observed(predicate: (observation: Observation) => boolean): Promise<Observation>;
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    runtime?: Partial<Omit<CreateRuntimeOptions, 'state'>>;
    adapter?: Partial<SlackAdapterOptions>;
    state?: State;
  } = {},
): Promise<Harness> {
  const fake = await startFakeSlackApi();
  const observations: Observation[] = [];
  const waiters = new Set<() => void>();
  const adapter = createSlackAdapter({
    signingSecret: SECRET,
    ...(options.adapter?.tokenResolver === undefined ? { botToken: BOT_TOKEN } : {}),
    apiUrl: fake.url,
    webClientOptions: { retryConfig: { retries: 0 } },
    ...options.adapter,
  } as SlackAdapterOptions);
  const state = options.state ?? createMemoryState();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    observers: [
      (observation) => {
        observations.push(observation);
        for (const wake of [...waiters]) wake();
      },
    ],
    ...options.runtime,
  });
  return {
    fake,
    adapter,
    runtime,
    observations,
    send: (payload, headers) =>
      adapter.handler(
        signedSlackRequest({ secret: SECRET, payload, ...(headers ? { headers } : {}) }),
      ),
    observed: (predicate) =>
      new Promise((resolve) => {
        const check = () => {
          const found = observations.find(predicate);
          if (found === undefined) return false;
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => {
          check();
        };
        if (!check()) waiters.add(wake);
      }),
    close: async () => {
      await runtime.shutdown({ graceMs: 0 });
      await adapter.drainFollowUps();
      await fake.close();
      await state.close();
    },
  };
}

/** A RuntimeHandle that records dispatches and observations and answers with `result`. */
export function fakeRuntimeHandle(
  dispatch: RuntimeHandle['dispatch'] = async () => ({ status: 'unrouted' }),
): RuntimeHandle & {
  dispatched: Parameters<RuntimeHandle['dispatch']>[0][];
  observed: Observation[];
} {
  const dispatched: Parameters<RuntimeHandle['dispatch']>[0][] = [];
  const observed: Observation[] = [];
  return {
    dispatched,
    observed,
    dispatch: (event, opts) => {
      dispatched.push(event);
      return dispatch(event, opts);
    },
    observe: (observation) => {
      observed.push(observation);
    },
    modeFor: () => 'deferred',
    shuttingDown: false,
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
  runtime: ReturnType<typeof fakeRuntimeHandle>;
} {
  const adapter = createSlackAdapter({
    signingSecret: ['rotated-new-secret', SECRET],
    botToken: 'xoxb-unit',
    clock: () => NOW_MS,
  });
  adapter.attach(runtime);
  return { adapter, runtime };
}
