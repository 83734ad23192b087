import type { ConversationActions } from '../conversation/actions.js';
import type { DispatchOptions, DispatchResult } from '../dispatch/dispatch-result.js';
import type { RtEvent } from '../event/event.js';
import type { LockScope } from '../locks/lock-scope.js';
import type { DispatchMode, Observation } from '../observe/observation.js';

/** Something a handler asks an adapter to post. Adapters accept platform extras in `extra`. */
export interface OutboundMessage {
  readonly text: string;
  /** Platform-specific fields (Slack blocks, Discord embeds...), passed through. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Where a posted message landed. */
export interface PostedMessage {
  readonly channel: string;
  readonly id: string;
  readonly thread?: string;
}

/**
 * What a runtime gives an adapter when the adapter is registered. Adapters call `dispatch` for
 * every verified, parsed delivery and map its result or error to a platform response.
 */
export interface RuntimeHandle {
  /** Runs the dispatch prelude; see `Runtime.dispatch`. */
  dispatch(event: RtEvent, options?: DispatchOptions): Promise<DispatchResult>;
  /** Emits an observation (e.g. an `adapter_notice`) to the runtime's observers. */
  observe(observation: Observation): void;
  /** The dispatch mode the runtime will use for `event` (so an adapter can shape its ack). */
  modeFor(event: RtEvent): DispatchMode;
  /** True once `runtime.shutdown()` has started. */
  readonly shuttingDown: boolean;
}

/**
 * A platform adapter. It owns verification, parsing, normalisation, the shape-aware mapping of
 * dispatch results to platform responses, and outbound messaging for handlers.
 */
export interface Adapter {
  /** Unique per runtime; becomes `RtEvent.adapter`. */
  readonly name: string;
  /** Lock scope used for this adapter's events unless runtime options override it. */
  readonly defaultLockScope?: LockScope;
  /** Called once when the adapter is registered with a runtime. */
  attach(runtime: RuntimeHandle): void;
  /**
   * The adapter's own dispatch mode for an event's shape (e.g. Slack `view_submission` is sync),
   * or `undefined` to leave it to runtime options.
   */
  dispatchModeFor?(event: RtEvent): DispatchMode | undefined;
  /**
   * Opens inbound connections (Socket Mode, gateway). HTTP-only adapters omit it. `signal` aborts
   * when the runtime shuts down before the start finished: stop connecting and reject with its
   * reason.
   */
  start?(signal: AbortSignal): Promise<void>;
  /**
   * Closes inbound connections. Called by `runtime.shutdown()` after admission has closed, so
   * anything still arriving has already been rejected with reason `shutdown`. Waits only for the
   * work in flight when it began (it must converge while traffic keeps arriving). `signal` aborts
   * at the step's deadline: give up, reject with its reason, and leave nothing running. Idempotent.
   */
  stop?(signal: AbortSignal): Promise<void>;
  /**
   * Called by `runtime.shutdown()` after every admitted delivery has its outcome (and after
   * `stop()`): finish outbound work that outcomes started, such as a late busy signal for a
   * dropped delivery. Converges like `stop()`; `signal` aborts at the step's deadline. Idempotent.
   */
  drain?(signal: AbortSignal): Promise<void>;
  /**
   * Posts `message` in reply to `event` (in its thread when it has one). When `options.signal`
   * aborts, the call stops waiting and rejects with `signal.reason`. A handler's `ctx.reply` passes
   * the delivery's signal.
   */
  reply(
    event: RtEvent,
    message: OutboundMessage,
    options?: { readonly signal?: AbortSignal },
  ): Promise<PostedMessage>;
  /**
   * The conversation capability behind `ctx.reply`, `ctx.post`, `ctx.react`, ... (neutral
   * messages, cards and forms rendered by the adapter). Optional: without it `ctx.reply` of text
   * uses `reply` above and every other action rejects with `UnsupportedActionError`.
   */
  readonly actions?: ConversationActions;
}

/** One message of a thread, as read back from the platform. */
export interface HistoryMessage {
  readonly id: string;
  readonly user?: string;
  readonly text: string;
  /** Epoch milliseconds. */
  readonly at: number;
  readonly fromBot: boolean;
}

/**
 * Optional capability: reads a thread's earlier messages from the platform. History is always
 * read from the platform, never stored in Runtime State.
 */
export interface HistoryReader {
  /** Messages of `event`'s thread, oldest first, at most `limit` (adapter default when unset). */
  readHistory(
    event: RtEvent,
    options?: { limit?: number; signal?: AbortSignal },
  ): Promise<HistoryMessage[]>;
}

/** True when `adapter` offers the optional `HistoryReader` capability. */
export function isHistoryReader(adapter: Adapter): adapter is Adapter & HistoryReader {
  return typeof (adapter as Partial<HistoryReader>).readHistory === 'function';
}
