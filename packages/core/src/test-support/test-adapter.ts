/*
 * Core's own tests keep this private adapter (and `deferred` below) instead of @rt/testing's
 * `createTestAdapter` and `deferred`: @rt/testing depends on @rt/core, and a devDependency back
 * from core makes turbo refuse the graph ("Cyclic dependency detected: @rt/core#build,
 * @rt/testing#build"). Everything outside core uses @rt/testing's. `createTestAdapter` here has
 * the same shape as @rt/testing's (a subset of it); keep it minimal.
 */
import type { Adapter, OutboundMessage, PostedMessage, RuntimeHandle } from '../adapter/adapter.js';
import type { DispatchOptions, DispatchResult } from '../dispatch/dispatch-result.js';
import type { RtEvent } from '../event/event.js';
import type { DispatchMode } from '../observe/observation.js';
import type { FinishedDelivery } from '../outcomes/outcome.js';

let sequence = 0;

/** Builds a valid event with unique id; `overrides` win. */
export function makeEvent(overrides: Partial<RtEvent> = {}): RtEvent {
  sequence += 1;
  return {
    adapter: 'test',
    tenant: 'T1',
    id: `ev-${sequence}`,
    kind: 'message',
    shape: 'message',
    channel: 'C1',
    thread: `thread-${sequence}`,
    text: 'hello',
    receivedAt: Date.now(),
    payload: { sequence },
    ...overrides,
  };
}

/** What a bot posted through the test adapter (as `@rt/testing`'s `PostedByBot`, plus `signal`). */
export interface PostedByBot {
  readonly channel: string;
  readonly thread: string | undefined;
  readonly text: string;
  readonly extra?: Readonly<Record<string, unknown>>;
  /** The event the bot replied to. */
  readonly inReplyTo: RtEvent;
  /** The signal `reply` was called with (core-only: core tests check signal propagation). */
  readonly signal?: AbortSignal;
}

/** Options of `createTestAdapter` (the subset of `@rt/testing`'s that core's tests need). */
export interface TestAdapterOptions {
  /** Adapter name (becomes `RtEvent.adapter`). Default `test`. */
  readonly name?: string;
  /** Tenant used when an event does not name one. Default `T1` (`makeEvent`'s). */
  readonly tenant?: string;
  /** Dispatch mode per event shape, as a real adapter would declare (e.g. a modal is sync). */
  readonly shapeModes?: Readonly<Record<string, DispatchMode>>;
}

/**
 * The smallest real adapter: dispatches what a test sends and records replies. The same shape
 * as `@rt/testing`'s `TestAdapter` (`posted`, `send`, `message`/`mention`/`command`/`action`,
 * `settled`, `clear`), without its conversation actions, streaming and history (core tests add
 * those themselves where they test them), plus `runtime`, the handle it was attached to.
 */
export interface TestAdapter extends Adapter {
  /** Every message the bot posted with `ctx.reply`, in order. */
  readonly posted: readonly PostedByBot[];
  /** The runtime handle this adapter is attached to (core-only). */
  readonly runtime: RuntimeHandle | undefined;
  /** Dispatches `makeEvent(event)`, this adapter's name and tenant filled in unless given. */
  send(event?: Partial<RtEvent>, options?: DispatchOptions): Promise<DispatchResult>;
  /** A message in a channel. */
  message(text: string, event?: Partial<RtEvent>): Promise<DispatchResult>;
  /** A mention of the bot. */
  mention(text: string, event?: Partial<RtEvent>): Promise<DispatchResult>;
  /** A command by name with its text. */
  command(name: string, text?: string, event?: Partial<RtEvent>): Promise<DispatchResult>;
  /** An interactive action by id. */
  action(actionId: string, event?: Partial<RtEvent>): Promise<DispatchResult>;
  /** Resolves when every delivery accepted so far has reached its terminal outcome. */
  settled(): Promise<void>;
  /** Forgets what was posted. */
  clear(): void;
}

/** Creates a test adapter. Register it with `createRuntime({ adapters: [adapter] })`. */
export function createTestAdapter(options: TestAdapterOptions = {}): TestAdapter {
  const name = options.name ?? 'test';
  const tenant = options.tenant ?? 'T1';
  const posted: PostedByBot[] = [];
  const pending = new Set<Promise<unknown>>();
  let runtime: RuntimeHandle | undefined;

  const send = async (event: Partial<RtEvent> = {}, dispatchOptions?: DispatchOptions) => {
    if (!runtime) throw new Error(`test adapter "${name}" is not registered with a runtime`);
    const result = await runtime.dispatch(
      makeEvent({ adapter: name, tenant, ...event }),
      dispatchOptions,
    );
    if (result.status === 'accepted') {
      const tracked = result.settled.finally(() => pending.delete(tracked));
      pending.add(tracked);
    }
    return result;
  };

  return {
    name,
    posted,
    get runtime() {
      return runtime;
    },
    attach(handle) {
      runtime = handle;
    },
    dispatchModeFor(event) {
      return options.shapeModes?.[event.shape];
    },
    async reply(
      event: RtEvent,
      message: OutboundMessage,
      replyOptions: { readonly signal?: AbortSignal } = {},
    ): Promise<PostedMessage> {
      replyOptions.signal?.throwIfAborted();
      const channel = event.channel ?? 'C1';
      posted.push({
        channel,
        thread: event.thread,
        text: message.text,
        ...(message.extra ? { extra: message.extra } : {}),
        inReplyTo: event,
        ...(replyOptions.signal ? { signal: replyOptions.signal } : {}),
      });
      return { channel, id: `m-${posted.length}`, thread: event.thread };
    },
    send,
    message: (text, event = {}) => send({ kind: 'message', text, ...event }),
    mention: (text, event = {}) => send({ kind: 'mention', text, ...event }),
    command: (command, text = '', event = {}) =>
      send({ kind: 'command', command, text, shape: 'command', ...event }),
    action: (actionId, event = {}) => send({ kind: 'action', actionId, shape: 'action', ...event }),
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    clear() {
      posted.length = 0;
    },
  };
}

/** A promise with its resolve/reject exposed. */
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

/** Lets pending promise callbacks run (several microtask turns). */
export async function flush(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i += 1) await Promise.resolve();
}

/** The `settled` promise of an accepted result; fails the test when the result is anything else. */
export function settledOf(result: DispatchResult): Promise<FinishedDelivery> {
  if (result.status !== 'accepted') {
    throw new Error(`expected an accepted dispatch, got ${JSON.stringify(result.status)}`);
  }
  return result.settled;
}

/** The outcome an accepted result has reached by now, or `'pending'`: never waits for timers. */
export async function outcomeNow(result: DispatchResult): Promise<string> {
  let outcome = 'pending';
  void settledOf(result).then((finished) => {
    outcome = finished.outcome;
  });
  await flush();
  return outcome;
}
