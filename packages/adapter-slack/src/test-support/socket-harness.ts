import type { CreateRuntimeOptions, Observation, Runtime, State } from '@rt/core';
import { createRuntime } from '@rt/core';
import { timeoutSignal } from '@rt/core/adapter';
import { createMemoryState } from '@rt/state-memory';
import { type AdapterNoticeObservation, observationLog } from '@rt/testing';
import {
  type FakeSlackApi,
  type FakeSocketMode,
  startFakeSlackApi,
  startFakeSocketMode,
} from '@rt/testing/slack';
import type { SlackAdapterOptions } from '../options.js';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';
import type { SlackSocketModeOptions } from '../socket-mode/options.js';
import { BOT_TOKEN } from './harness.js';

/** The app token the socket harness connects with. */
export const APP_TOKEN = 'xapp-1-A0APP-test';

/** A runtime whose Slack adapter receives over Socket Mode from a fake, plus a fake Web API. */
export interface SocketHarness {
  readonly fake: FakeSocketMode;
  readonly web: FakeSlackApi;
  readonly adapter: SlackAdapter;
  readonly runtime: Runtime;
  readonly observations: Observation[];
  /** Resolves with the first observation matching `predicate` (rejects after 10 s). */
  observed(predicate: (observation: Observation) => boolean): Promise<Observation>;
  /** The `adapter_notice`s named `name`, so far. */
  notices(name: string): AdapterNoticeObservation[];
  /** Shuts the runtime down (if not yet), then closes what the harness started. */
  close(): Promise<void>;
}

/** What `startSocketHarness` can be given. */
export interface SocketHarnessOptions {
  /** A fake to share (two runtimes on one app); default a new one, closed by `close()`. */
  readonly fake?: FakeSocketMode;
  /** A State to share; default a new memory State, closed by `close()`. */
  readonly state?: State;
  readonly runtime?: Partial<Omit<CreateRuntimeOptions, 'state'>>;
  readonly adapter?: Partial<SlackAdapterOptions>;
  readonly socketMode?: Partial<SlackSocketModeOptions>;
  /** Call `runtime.start()` (and wait for `hello`). Default true. */
  readonly start?: boolean;
}

/**
 * Starts a Socket Mode harness: the real `@slack/socket-mode` client in the adapter, connected to
 * the fake of `@rt/testing/slack` (reconnect delays of 10-50 ms so tests reconnect quickly).
 */
export async function startSocketHarness(
  options: SocketHarnessOptions = {},
): Promise<SocketHarness> {
  const fake = options.fake ?? (await startFakeSocketMode({ redeliverAfterMs: false }));
  const web = await startFakeSlackApi();
  const log = observationLog();
  const adapter = createSlackAdapter({
    botToken: BOT_TOKEN,
    apiUrl: web.url,
    webClientOptions: { retryConfig: { retries: 0 } },
    ...options.adapter,
    socketMode: {
      appToken: APP_TOKEN,
      apiUrl: fake.apiUrl,
      reconnectMinDelayMs: 10,
      reconnectMaxDelayMs: 50,
      ...options.socketMode,
    },
  });
  const state = options.state ?? createMemoryState();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    observers: [log.observer],
    ...options.runtime,
  });
  if (options.start !== false) await runtime.start();
  return {
    fake,
    web,
    adapter,
    runtime,
    observations: log.observations,
    observed: async (predicate) => {
      const timeout = timeoutSignal(10_000, 'socket harness: no matching observation within 10 s');
      try {
        return await log.observed(predicate, { signal: timeout.signal });
      } finally {
        timeout.clear();
      }
    },
    notices: log.notices,
    close: async () => {
      await runtime.shutdown({ graceMs: 0 });
      await web.close();
      if (options.fake === undefined) await fake.close();
      if (options.state === undefined) await state.close();
    },
  };
}
