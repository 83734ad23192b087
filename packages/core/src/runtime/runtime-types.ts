import type { Adapter } from '../adapter/adapter.js';
import type { DispatchOptions, DispatchResult } from '../dispatch/dispatch-result.js';
import type { RtEvent } from '../event/event.js';
import type { Outcome } from '../outcomes/outcome.js';
import type { Handler } from '../routing/handler.js';
import type { Pattern, Route } from '../routing/route.js';
import type { ResolvedRuntimeOptions } from './options.js';

/** Live counts. Cheap to call. */
export interface RuntimeStats {
  /** Deferred deliveries holding an admission slot (running, parked, waiting, batched). */
  readonly detachedInFlight: number;
  /**
   * The most `detachedInFlight` has been since the runtime was created. Compare it with
   * `maxDetached` under your peak traffic: a high-water mark at the bound means deliveries were
   * refused (`admission_rejected`, reason `capacity`), one far below it leaves headroom.
   */
  readonly detachedHighWater: number;
  /** Slots held per installation, keyed `adapter:tenant`; tenants at zero are absent. */
  readonly perTenantInFlight: Readonly<Record<string, number>>;
  /** Sync deliveries currently inside dispatch. */
  readonly syncInFlight: number;
  /** Deliveries parked by queue/debounce or waiting in a concurrent line or open burst batch. */
  readonly parked: number;
  /** Every dispatch call so far. */
  readonly received: number;
  /** Deliveries accepted (admitted and marked) so far. */
  readonly accepted: number;
  /** Terminal outcomes so far, by outcome. */
  readonly outcomes: Readonly<Record<Outcome, number>>;
  /** Observer calls that threw or rejected. */
  readonly observerFailures: number;
  /** True from the moment `shutdown()` was called: admission is closed. */
  readonly shuttingDown: boolean;
}

/** Options of `runtime.shutdown`. */
export interface ShutdownOptions {
  /** How long running handlers get before their signal aborts with `ShutdownError`. */
  readonly graceMs?: number | undefined;
  /** Overrides `shutdownAbandonMs` for this call. */
  readonly abandonAfterMs?: number | undefined;
}

/** A chat bot runtime. Create one with `createRuntime`. */
export interface Runtime {
  readonly options: ResolvedRuntimeOptions;
  /** Registers an adapter (names must be unique). */
  use(adapter: Adapter): this;
  /** The registered adapter called `name`. */
  adapter(name: string): Adapter | undefined;
  /** Registers `handler` for `route`; returns an unregister function. */
  on(route: Route, handler: Handler): () => void;
  /** The bot was mentioned. */
  onMention(handler: Handler): () => void;
  /** A message, optionally only those whose text matches `text` (substring or RegExp). */
  onMessage(handler: Handler): () => void;
  onMessage(text: Pattern, handler: Handler): () => void;
  /**
   * A plain message (no mention) in a thread a handler subscribed with `ctx.thread.subscribe()`:
   * it goes to these handlers instead of the `onMessage` ones, and extends the subscription by its
   * TTL. A mention there still goes to `onMention`, once. Costs one State read per plain message
   * in a thread, none elsewhere. Throws `StateCapabilityMissingError` at once (after one
   * `state_capability_missing` observation) when the State lacks `Subscriptions`.
   * docs/conversations.md.
   */
  onSubscribedMessage(handler: Handler): () => void;
  /**
   * A message in a direct conversation with the bot (`RtEvent.direct`: a Slack `im` channel, a
   * Discord DM): the route `{ kind: 'message', direct: true }`. A direct message that mentions the
   * bot is a `mention` falling back to `message`: `onMention` handlers run it when any selects it,
   * else these (and `onMessage`'s): one message, one run. docs/events.md.
   */
  onDirectMessage(handler: Handler): () => void;
  /** A slash/application command, by name (leading `/` optional). */
  onCommand(name: string, handler: Handler): () => void;
  /** A button or other interactive component, by action id. */
  onAction(actionId: Pattern, handler: Handler): () => void;
  /** A form (Slack modal view, Discord modal) was submitted, by form id. */
  onFormSubmit(formId: Pattern, handler: Handler): () => void;
  /** A form was closed without submitting (Slack `view_closed`), optionally only form `formId`. */
  onFormClose(handler: Handler): () => void;
  onFormClose(formId: Pattern, handler: Handler): () => void;
  /** A shortcut (Slack global shortcut or message action, Discord context menu), by shortcut id. */
  onShortcut(shortcutId: Pattern, handler: Handler): () => void;
  /** An options request while a user types (Slack `block_suggestion`, Discord autocomplete). */
  onSuggestion(actionId: Pattern, handler: Handler): () => void;
  /**
   * A reaction added or removed, optionally only `name`: the platform type (`reaction_added`) or
   * the emoji name.
   */
  onReaction(handler: Handler): () => void;
  onReaction(name: string, handler: Handler): () => void;
  /** Any event whose platform type is `type` (kind `raw` or not, e.g. `team_join`). */
  onEvent(type: string, handler: Handler): () => void;
  /**
   * Runs the dispatch prelude (shutdown check, route, admission, dedupe mark) and then either
   * starts the detached tail (deferred) or runs the handlers (sync). See docs/contract.md §3.
   */
  dispatch(event: RtEvent, options?: DispatchOptions): Promise<DispatchResult>;
  /** Starts connection-based adapters. Idempotent. */
  start(): Promise<void>;
  /**
   * Closes admission, stops adapters' inbound connections, ends parked work with `shutdown`,
   * gives running handlers `graceMs`, then aborts them; handlers still running `abandonAfterMs`
   * later are abandoned with outcome `shutdown`. Resolves when every admitted delivery has its
   * terminal outcome. Does not close the State (the caller owns it). Calling it again returns the
   * same promise.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
  /** A snapshot of live counts (slots, parked work, outcomes so far); cheap, never waits. */
  stats(): RuntimeStats;
}
