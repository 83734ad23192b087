/**
 * `ctx.thread`: the handler's view of its conversation (docs/conversations.md): subscribing the
 * thread so its plain messages reach `onSubscribedMessage`, and one small fenced JSON value.
 */
import {
  NotInThreadError,
  StaleFenceError,
  ThreadStateConflictError,
  UnfencedWriteError,
} from '../errors.js';
import type { RtEvent } from '../event/event.js';
import { assertTtlMs } from '../state/validate-arguments.js';
import type { ThreadHost } from './thread-host.js';
import { parseThreadState, serialiseThreadState } from './thread-json.js';
import { threadKeyOf } from './thread-key.js';
import { THREAD_DEFAULTS } from './thread-options.js';

/**
 * Options every `ctx.thread` call takes. Before each State call the handler's own signal is
 * checked, and `signal` too when given: an aborted one rejects with its reason and sends nothing
 * (a handler whose lease was lost cannot even try). A State call already sent is not cancelled
 * (State calls are short and bounded by the State's own timeout).
 */
export interface ThreadCallOptions {
  readonly signal?: AbortSignal;
}

/** Options of `ctx.thread.subscribe`. */
export interface SubscribeOptions extends ThreadCallOptions {
  /** How long the subscription lives without a routed message, ms. Default 24 hours. */
  readonly ttlMs?: number;
}

/** Options of `ctx.thread.state.set` and `update`. */
export interface ThreadStateWriteOptions extends ThreadCallOptions {
  /** How long the state lives after this write, ms. Default 7 days. */
  readonly ttlMs?: number;
}

/**
 * One JSON value per thread, at most 16 KiB serialised, written under the handler's Thread Lock
 * fence. The State keeps the write with the highest fence: a write whose fence is below the stored
 * one (its writer lost its lease and a successor wrote) rejects with `StaleFenceError` and changes
 * nothing. Values are checked before any State call: `ThreadStateSerializationError` for what JSON
 * cannot carry, `ThreadStateTooLargeError` past the bound. A State failure rejects with the
 * State's error (`StateUnavailableError`) and leaves the previous value.
 */
export interface ThreadStateHandle {
  /** The thread's value, or `undefined` when none is stored (or it expired). */
  get<T = unknown>(options?: ThreadCallOptions): Promise<T | undefined>;
  /**
   * Stores `value`, fenced. A handler without a lock (strategy `concurrent`) gets
   * `UnfencedWriteError` before any State call.
   */
  set(value: unknown, options?: ThreadStateWriteOptions): Promise<void>;
  /**
   * Read-modify-write under the fence: reads the value, calls `fn` with it (`undefined` when none),
   * and writes the result only if nobody wrote in between (a version check in the same atomic step
   * as the fence check); otherwise reads again and calls `fn` again, at most 5 times, then rejects
   * with `ThreadStateConflictError`. `fn` must be synchronous and free of side effects, since it
   * may run more than once; what it throws rejects the update, writing nothing. Resolves the value
   * written. Same fence rule and errors as `set`.
   */
  update<T = unknown>(
    fn: (current: T | undefined) => T,
    options?: ThreadStateWriteOptions,
  ): Promise<T>;
}

/**
 * The handler's thread. Every method rejects with `NotInThreadError` when the event belongs to no
 * thread, and with `StateCapabilityMissingError` (after one `state_capability_missing`
 * observation) when the State lacks `Subscriptions` (subscription methods) or `FencedThreadState`
 * (`state`).
 */
export interface ThreadContext {
  /** The thread key (`adapter:tenant:channel:thread`), `undefined` outside a thread. */
  readonly key: string | undefined;
  /**
   * Subscribes the thread: from now on its plain messages (no mention) go to the
   * `onSubscribedMessage` handlers. Each message routed there extends the subscription by its TTL;
   * it ends after `ttlMs` without one, on `unsubscribe()`, or when the platform archives or
   * deletes the thread (where the adapter sees that).
   */
  subscribe(options?: SubscribeOptions): Promise<void>;
  /** Ends the subscription. Resolves whether one was live. */
  unsubscribe(options?: ThreadCallOptions): Promise<boolean>;
  /** Whether the thread is subscribed (does not extend it). */
  isSubscribed(options?: ThreadCallOptions): Promise<boolean>;
  readonly state: ThreadStateHandle;
}

/** How a `ThreadContext` reads its handler's run: the abort state and the lock's fence. */
export interface ThreadRun {
  readonly event: RtEvent;
  /** The fence of the lock the handler holds; `undefined` without one. */
  readonly fence: number | undefined;
  /** The reason the handler's run aborted with, or `undefined` while it runs. */
  abortReason(): { readonly reason: unknown } | undefined;
}

/** Builds the `ctx.thread` of one handler run. */
export function createThreadContext(host: ThreadHost, run: ThreadRun): ThreadContext {
  return new RunThread(host, run);
}

class RunThread implements ThreadContext, ThreadStateHandle {
  readonly key: string | undefined;
  readonly #host: ThreadHost;
  readonly #run: ThreadRun;

  constructor(host: ThreadHost, run: ThreadRun) {
    this.#host = host;
    this.#run = run;
    this.key = threadKeyOf(run.event);
  }

  get state(): ThreadStateHandle {
    return this;
  }

  async subscribe(options?: SubscribeOptions): Promise<void> {
    const ttlMs = options?.ttlMs ?? THREAD_DEFAULTS.subscriptionTtlMs;
    assertTtlMs(ttlMs, 'options.ttlMs');
    const key = this.#key('subscribe');
    const state = this.#host.subscriptions(this.#run.event);
    this.#checkSignal(options);
    await state.subscribe(key, ttlMs);
  }

  async unsubscribe(options?: ThreadCallOptions): Promise<boolean> {
    const key = this.#key('unsubscribe');
    const state = this.#host.subscriptions(this.#run.event);
    this.#checkSignal(options);
    return await state.unsubscribe(key);
  }

  async isSubscribed(options?: ThreadCallOptions): Promise<boolean> {
    const key = this.#key('isSubscribed');
    const state = this.#host.subscriptions(this.#run.event);
    this.#checkSignal(options);
    return await state.isSubscribed(key);
  }

  async get<T = unknown>(options?: ThreadCallOptions): Promise<T | undefined> {
    const key = this.#key('state.get');
    const state = this.#host.threadState(this.#run.event);
    this.#checkSignal(options);
    const record = await state.readThreadState(key);
    return record === null ? undefined : (parseThreadState(record.value) as T);
  }

  async set(value: unknown, options?: ThreadStateWriteOptions): Promise<void> {
    const { key, state, fence, ttlMs } = this.#prepareWrite('set', options);
    const json = serialiseThreadState(value, THREAD_DEFAULTS.maxStateBytes);
    this.#checkSignal(options);
    const result = await state.writeThreadState(key, json, fence, ttlMs);
    if (!result.ok) {
      // Without an expected version only the fence can refuse a write.
      throw new StaleFenceError(fence, result.reason === 'stale-fence' ? result.fence : fence);
    }
  }

  async update<T = unknown>(
    fn: (current: T | undefined) => T,
    options?: ThreadStateWriteOptions,
  ): Promise<T> {
    if (typeof fn !== 'function') throw new TypeError('update(fn) needs a function');
    const { key, state, fence, ttlMs } = this.#prepareWrite('update', options);
    for (let attempt = 1; attempt <= THREAD_DEFAULTS.updateAttempts; attempt += 1) {
      this.#checkSignal(options);
      const record = await state.readThreadState(key);
      if (record !== null && record.fence > fence) throw new StaleFenceError(fence, record.fence);
      const current = record === null ? undefined : (parseThreadState(record.value) as T);
      const next = fn(current);
      const json = serialiseThreadState(next, THREAD_DEFAULTS.maxStateBytes);
      this.#checkSignal(options);
      const result = await state.writeThreadState(key, json, fence, ttlMs, record?.version ?? 0);
      if (result.ok) return next;
      if (result.reason === 'stale-fence') throw new StaleFenceError(fence, result.fence);
    }
    throw new ThreadStateConflictError(THREAD_DEFAULTS.updateAttempts);
  }

  /** The checks every write makes before touching the State, in a fixed order. */
  #prepareWrite(operation: 'set' | 'update', options: ThreadStateWriteOptions | undefined) {
    const ttlMs = options?.ttlMs ?? THREAD_DEFAULTS.stateTtlMs;
    assertTtlMs(ttlMs, 'options.ttlMs');
    const key = this.#key(`state.${operation}`);
    const state = this.#host.threadState(this.#run.event);
    const fence = this.#run.fence;
    if (fence === undefined) throw new UnfencedWriteError(operation);
    return { key, state, fence, ttlMs };
  }

  #key(operation: string): string {
    if (this.key === undefined) throw new NotInThreadError(operation);
    return this.key;
  }

  #checkSignal(options: ThreadCallOptions | undefined): void {
    options?.signal?.throwIfAborted();
    const aborted = this.#run.abortReason();
    if (aborted !== undefined) throw aborted.reason;
  }
}
