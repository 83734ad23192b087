import { isRtLogger } from '../observe/logger.js';
import {
  type CreateRuntimeOptions,
  DEFAULT_CONCURRENCY,
  DEFAULT_RUNTIME_OPTIONS,
  type ResolvedConcurrency,
  type ResolvedRuntimeOptions,
  type StrategyName,
} from './options.js';

const STRATEGIES: readonly StrategyName[] = ['drop', 'queue', 'debounce', 'concurrent', 'burst'];
const MODES = ['sync', 'deferred'];
/** setTimeout's largest delay; anything above fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function nonNegativeInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(`${name} must be an integer >= 0 (0 disables it), got ${String(value)}`);
  }
  return value;
}

/** A whole number of milliseconds: State implementations take integer TTLs (Redis PX). */
function duration(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new RangeError(
      `${name} must be an integer number of milliseconds in [1, ${MAX_TIMER_MS}], got ${String(value)}`,
    );
  }
  return value;
}

function mode(name: string, value: unknown): void {
  if (!MODES.includes(value as string)) {
    throw new TypeError(`${name} must be 'sync' or 'deferred', got ${String(value)}`);
  }
}

function resolveConcurrency(input: CreateRuntimeOptions['concurrency']): ResolvedConcurrency {
  const raw =
    typeof input === 'string'
      ? { strategy: input }
      : (input ?? { strategy: DEFAULT_CONCURRENCY.strategy });
  if (typeof raw !== 'object' || !STRATEGIES.includes(raw.strategy)) {
    throw new TypeError(
      `concurrency.strategy must be one of ${STRATEGIES.join(', ')}, got ${String((raw as { strategy?: unknown })?.strategy ?? raw)}`,
    );
  }
  const merged = { ...DEFAULT_CONCURRENCY, ...stripUndefined(raw) };
  const resolved: ResolvedConcurrency = {
    strategy: merged.strategy,
    debounceMs: duration('concurrency.debounceMs', merged.debounceMs),
    burstWindowMs: duration('concurrency.burstWindowMs', merged.burstWindowMs),
    maxBatch: positiveInteger('concurrency.maxBatch', merged.maxBatch),
    lockPollInitialMs: duration('concurrency.lockPollInitialMs', merged.lockPollInitialMs),
    lockPollMaxMs: duration('concurrency.lockPollMaxMs', merged.lockPollMaxMs),
    maxConcurrent:
      raw.maxConcurrent === undefined
        ? undefined
        : positiveInteger('concurrency.maxConcurrent', raw.maxConcurrent),
  };
  if (resolved.lockPollMaxMs < resolved.lockPollInitialMs) {
    throw new RangeError('concurrency.lockPollMaxMs must be >= concurrency.lockPollInitialMs');
  }
  return Object.freeze(resolved);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Fills defaults and validates every option, throwing `TypeError` (wrong kind of value) or
 * `RangeError` (out of range) naming the option and what it expected.
 */
export function resolveRuntimeOptions(input: CreateRuntimeOptions): ResolvedRuntimeOptions {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError('createRuntime needs an options object with a state');
  }
  const state = input.state;
  for (const method of ['markEvent', 'acquireLock', 'renewLock', 'releaseLock', 'close'] as const) {
    if (typeof (state as unknown as Record<string, unknown> | undefined)?.[method] !== 'function') {
      throw new TypeError(`state must implement the State contract (missing ${method})`);
    }
  }
  const merged = { ...DEFAULT_RUNTIME_OPTIONS, ...stripUndefined(input) };
  mode('dispatchMode', merged.dispatchMode);
  for (const [adapter, modes] of Object.entries(merged.dispatchModes)) {
    if (modes.default !== undefined) mode(`dispatchModes.${adapter}.default`, modes.default);
    for (const [shape, value] of Object.entries(modes.shapes ?? {})) {
      mode(`dispatchModes.${adapter}.shapes.${shape}`, value);
    }
  }
  const lockScope = merged.lockScope;
  if (
    lockScope !== undefined &&
    lockScope !== 'thread' &&
    lockScope !== 'channel' &&
    typeof lockScope !== 'function'
  ) {
    throw new TypeError(`lockScope must be 'thread', 'channel' or a function`);
  }
  if (!Array.isArray(merged.observers) || merged.observers.some((o) => typeof o !== 'function')) {
    throw new TypeError('observers must be an array of functions');
  }
  const instrumentation = merged.observers.findIndex(
    (o) => 'aroundHandler' in o && typeof o.aroundHandler !== 'function',
  );
  if (instrumentation >= 0) {
    throw new TypeError(`observers[${instrumentation}].aroundHandler must be a function`);
  }
  if (!Array.isArray(merged.adapters)) throw new TypeError('adapters must be an array');
  if (merged.logger !== undefined && merged.logger !== false && !isRtLogger(merged.logger)) {
    throw new TypeError('logger must be false or an object with warn and error methods');
  }
  return Object.freeze({
    ...merged,
    state,
    maxDetached: positiveInteger('maxDetached', merged.maxDetached),
    maxDetachedPerTenant: nonNegativeInteger('maxDetachedPerTenant', merged.maxDetachedPerTenant),
    detachTimeoutMs: duration('detachTimeoutMs', merged.detachTimeoutMs),
    dedupeTtlMs: duration('dedupeTtlMs', merged.dedupeTtlMs),
    lockTtlMs: duration('lockTtlMs', merged.lockTtlMs),
    shutdownGraceMs: duration('shutdownGraceMs', merged.shutdownGraceMs),
    shutdownAbandonMs: duration('shutdownAbandonMs', merged.shutdownAbandonMs),
    concurrency: resolveConcurrency(merged.concurrency),
  });
}
