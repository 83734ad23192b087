import type { Adapter } from '../adapter/adapter.js';
import type { LockScope } from '../locks/lock-scope.js';
import type { RtLogger } from '../observe/logger.js';
import type { DispatchMode, Observation, Observer } from '../observe/observation.js';
import type { State } from '../state/state.js';

/** The five concurrency strategies (docs/contract.md §5). */
export type StrategyName = 'drop' | 'queue' | 'debounce' | 'concurrent' | 'burst';

/** A strategy with its tuning. Fields that do not apply to the chosen strategy are ignored. */
export interface ConcurrencyOptions {
  /**
   * Which strategy every locking decision uses (docs/contract.md §5). Default `queue`: no acknowledged message
   * is discarded unseen. `drop` is a deliberate choice to lose messages in a busy conversation.
   */
  readonly strategy: StrategyName;
  /** debounce: quiet period after the latest delivery before the survivor runs. Default 1000. */
  readonly debounceMs?: number | undefined;
  /** concurrent: handlers running at once per scope; unset means unlimited (no waiting line). */
  readonly maxConcurrent?: number | undefined;
  /** burst: members arriving within this many ms of a batch's first member join it. Default 1000. */
  readonly burstWindowMs?: number | undefined;
  /** burst: a batch closes at this many members and the next one opens. Default 50. */
  readonly maxBatch?: number | undefined;
  /** queue/debounce: first back-off when polling a lock held elsewhere. Default 50. */
  readonly lockPollInitialMs?: number | undefined;
  /** queue/debounce: back-off cap when polling a lock held elsewhere. Default 2000. */
  readonly lockPollMaxMs?: number | undefined;
}

/** Dispatch modes for one adapter: its default and per-shape overrides. */
export interface AdapterDispatchModes {
  readonly default?: DispatchMode;
  readonly shapes?: Readonly<Record<string, DispatchMode>>;
}

/** Runtime configuration. Units are in the names. */
export interface RuntimeOptions {
  /** Where dedupe marks and lock leases live. Required. */
  readonly state: State;
  /** Adapters to register at construction (more can be added with `runtime.use`). */
  readonly adapters: readonly Adapter[];
  /** Default dispatch mode. Default `deferred` (ack then work). */
  readonly dispatchMode: DispatchMode;
  /**
   * Overrides by adapter name. Precedence, highest first: this map's `shapes`, the adapter's own
   * per-shape mode (`Adapter.dispatchModeFor`), this map's `default`, then `dispatchMode`.
   */
  readonly dispatchModes: Readonly<Record<string, AdapterDispatchModes>>;
  /**
   * Per-instance cap on admitted-but-incomplete deferred deliveries (running tails, parked
   * waiters, waiting lines, burst members). Positive integer. Default 1024. Size it against your
   * platform's payload ceiling and your handlers' latency; a full bound answers platforms with a
   * retry signal (Slack: 503), and Slack may disable event subscriptions for an app that fails
   * more than 95% of deliveries in an hour.
   */
  readonly maxDetached: number;
  /** Per-installation ceiling on the same count; 0 disables it. A ceiling, not a reservation. */
  readonly maxDetachedPerTenant: number;
  /** A deferred delivery's handler signal aborts with `DetachTimeoutError` after this. Default 5 min. */
  readonly detachTimeoutMs: number;
  /**
   * Lifetime of a dedupe mark. Must outlive the platform's redelivery horizon: Slack retries for
   * about 6 minutes (24 hours with Delayed Events: raise it then). Default 1 hour.
   */
  readonly dedupeTtlMs: number;
  /** Thread Lock lease length; renewed every third of it while the handler runs. Default 30 s. */
  readonly lockTtlMs: number;
  /** Lock scope for every adapter; unset uses each adapter's default, else `thread`. */
  readonly lockScope: LockScope | undefined;
  /**
   * Concurrency strategy. Default `queue`: a delivery for a busy conversation waits (the newest
   * one per scope; those it supersedes reach its handler in `ctx.skipped`). Choose `drop` only if
   * losing messages that arrive while the conversation's handler runs is what you want.
   */
  readonly concurrency: StrategyName | ConcurrencyOptions;
  /** Default grace for running handlers at `shutdown()`. Default 10 s. */
  readonly shutdownGraceMs: number;
  /**
   * After the grace deadline aborted them, how long `shutdown()` still waits for handlers that
   * ignore their signal. Those still running then are abandoned: their outcome is recorded as
   * `shutdown` and what they do later is ignored; their slots stay held until their promises
   * settle. Default 5 s.
   */
  readonly shutdownAbandonMs: number;
  /**
   * Receive every observation, in registration order; what they throw is contained. An observer
   * may also carry `aroundHandler` (`HandlerInstrumentation`), detected here at creation: every
   * handler run then goes through it.
   */
  readonly observers: readonly Observer[];
  /**
   * Called (contained) when an observer throws or rejects, with the observation it was given;
   * `observation` is `undefined` when an observer's `aroundHandler` failed.
   */
  readonly onObserverError:
    | ((error: unknown, observation: Observation | undefined) => void)
    | undefined;
  /**
   * Where warnings and errors go (failed, timed-out and preempted handlers, prelude errors,
   * admission refusals, State failures, and adapter notices of warning or error level such as
   * failed outbound calls, connection trouble, deadline misses): an `RtLogger`, called as
   * `warn(fields, message)` / `error(fields, message)` (pino's order; `console` works too),
   * rate-limited and redacted by `logObserver`. Unset: a stderr logger, installed only when
   * `observers` is empty (an observer is then expected to report). `false`: nothing is logged.
   */
  readonly logger: RtLogger | false | undefined;
}

/**
 * What `createRuntime` accepts: `state` plus any option to override. An option set to
 * `undefined` takes its default (so `maxDetached: env.MAX ? Number(env.MAX) : undefined` works
 * under `exactOptionalPropertyTypes`).
 */
export type CreateRuntimeOptions = {
  readonly [K in Exclude<keyof RuntimeOptions, 'state'>]?: RuntimeOptions[K] | undefined;
} & {
  readonly state: State;
};

/** The defaults every option falls back to. */
export const DEFAULT_RUNTIME_OPTIONS: Readonly<Omit<RuntimeOptions, 'state'>> = Object.freeze({
  adapters: Object.freeze([]) as readonly Adapter[],
  dispatchMode: 'deferred',
  dispatchModes: Object.freeze({}),
  maxDetached: 1024,
  maxDetachedPerTenant: 0,
  detachTimeoutMs: 300_000,
  dedupeTtlMs: 3_600_000,
  lockTtlMs: 30_000,
  lockScope: undefined,
  concurrency: 'queue',
  shutdownGraceMs: 10_000,
  shutdownAbandonMs: 5_000,
  observers: Object.freeze([]) as readonly Observer[],
  onObserverError: undefined,
  logger: undefined,
});

/** Concurrency defaults. */
export const DEFAULT_CONCURRENCY: Readonly<Required<Omit<ConcurrencyOptions, 'maxConcurrent'>>> =
  Object.freeze({
    strategy: 'queue',
    debounceMs: 1000,
    burstWindowMs: 1000,
    maxBatch: 50,
    lockPollInitialMs: 50,
    lockPollMaxMs: 2000,
  });

/** Concurrency options with defaults filled in. */
export type ResolvedConcurrency = Required<Omit<ConcurrencyOptions, 'maxConcurrent'>> & {
  readonly maxConcurrent: number | undefined;
};

/** Runtime options with defaults filled in and validated. */
export type ResolvedRuntimeOptions = Omit<RuntimeOptions, 'concurrency'> & {
  readonly concurrency: ResolvedConcurrency;
};
