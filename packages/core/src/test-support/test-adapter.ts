/*
 * Core's own tests keep this private adapter (and `deferred` below) instead of @rt/testing's
 * `createTestAdapter` and `deferred`: @rt/testing depends on @rt/core, and a devDependency back
 * from core makes turbo refuse the graph ("Cyclic dependency detected: @rt/core#build,
 * @rt/testing#build"). Everything outside core uses @rt/testing's. Keep this one minimal.
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

/** The smallest real adapter: dispatches what a test sends and records replies. */
export class TestAdapter implements Adapter {
  readonly name: string;
  readonly replies: { event: RtEvent; message: OutboundMessage; signal?: AbortSignal }[] = [];
  readonly shapeModes = new Map<string, DispatchMode>();
  stopped = 0;
  started = 0;
  #runtime: RuntimeHandle | undefined;

  constructor(name = 'test') {
    this.name = name;
  }

  attach(runtime: RuntimeHandle): void {
    this.#runtime = runtime;
  }

  dispatchModeFor(event: RtEvent): DispatchMode | undefined {
    return this.shapeModes.get(event.shape);
  }

  async start(): Promise<void> {
    this.started += 1;
  }

  async stop(): Promise<void> {
    this.stopped += 1;
  }

  async reply(
    event: RtEvent,
    message: OutboundMessage,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<PostedMessage> {
    options.signal?.throwIfAborted();
    this.replies.push({ event, message, ...(options.signal ? { signal: options.signal } : {}) });
    return { channel: event.channel ?? 'C1', id: `m-${this.replies.length}`, thread: event.thread };
  }

  /** Dispatches `event` (adapter name filled in) through the runtime this adapter is attached to. */
  send(event: Partial<RtEvent> = {}, options?: DispatchOptions): Promise<DispatchResult> {
    if (!this.#runtime) throw new Error('TestAdapter is not attached to a runtime');
    return this.#runtime.dispatch(makeEvent({ adapter: this.name, ...event }), options);
  }

  get runtime(): RuntimeHandle | undefined {
    return this.#runtime;
  }
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
