/**
 * The observer behind `RuntimeOptions.logger`: turns the observations an operator must not miss
 * into warning and error lines, rate-limited, without payloads or credentials. With no observer
 * registered the runtime installs it over `createStderrLogger()`, so failures are never silent.
 */
import type { AdmissionRejectionReason } from '../errors.js';
import type { EventRef } from '../event/event.js';
import type { Outcome } from '../outcomes/outcome.js';
import {
  createStderrLogger,
  errorFields,
  type LogFields,
  type RtLogger,
  redact,
} from './logger.js';
import type { Observation, Observer } from './observation.js';
import { type ObserverInterest, withInterest } from './observers.js';

/** A level and a message for one observation, or nothing when it is not worth a line. */
type Line = { readonly level: 'warn' | 'error'; readonly key: string; readonly message: string };

/**
 * The level of each adapter notice rt's adapters emit; a notice not listed is a warning when it
 * carries an `error` and is not logged otherwise (connections made, payloads ignored on purpose).
 */
const NOTICE_LEVELS: Readonly<Record<string, 'warn' | 'error'>> = Object.freeze({
  request_failed: 'error',
  dispatch_error: 'error',
  envelope_failed: 'error',
  gateway_handling_failed: 'error',
  client_handler_failed: 'error',
  signature_rejected: 'warn',
  ack_deadline_passed: 'warn',
  busy_signal_failed: 'warn',
  dropped_without_signal: 'warn',
  app_rate_limited: 'warn',
  ephemeral_decision_failed: 'warn',
  interaction_callback_failed: 'warn',
  socket_connect_failed: 'warn',
  socket_closed: 'warn',
  socket_mode_log: 'warn',
  envelope_invalid: 'warn',
  envelope_unreadable: 'warn',
  ack_failed: 'warn',
  ack_payload_dropped: 'warn',
  gateway_disconnected: 'warn',
  gateway_error: 'warn',
});

/** Outcomes that are a warning or an error; every other outcome is normal operation. */
const OUTCOME_LINES: Readonly<Record<string, Line>> = Object.freeze({
  failed: { level: 'error', key: 'outcome:failed', message: 'handler failed' },
  'timed-out': {
    level: 'warn',
    key: 'outcome:timed-out',
    message: 'handler ran past detachTimeoutMs and was aborted',
  },
  preempted: {
    level: 'warn',
    key: 'outcome:preempted',
    message: 'handler preempted: its thread lock was lost',
  },
});

/**
 * The line of each logged refusal reason (none at shutdown), built once: under a flood the
 * runtime refuses thousands of deliveries a second, and all but `burst` of them are suppressed.
 */
const REFUSAL_LINES: Readonly<Partial<Record<AdmissionRejectionReason, Line>>> = Object.freeze({
  capacity: refusalLine('capacity'),
  'tenant-capacity': refusalLine('tenant-capacity'),
});

function refusalLine(reason: AdmissionRejectionReason): Line {
  return Object.freeze({
    level: 'warn',
    key: `admission_rejected:${reason}`,
    message: `delivery refused: ${reason}`,
  });
}

/**
 * What `lineOf` can turn into a line: the runtime builds nothing else for this observer (with no
 * other observer, no `dispatch_admitted` and no `dispatch_finished` of a completed delivery).
 */
const LOGGED: ObserverInterest = Object.freeze({
  types: new Set<Observation['type']>([
    'dispatch_finished',
    'prelude_error',
    'conversation_action',
    'admission_rejected',
    'state_error',
    'lease_lost',
    'state_capability_missing',
    'adapter_notice',
  ]),
  outcomes: new Set(Object.keys(OUTCOME_LINES) as Outcome[]),
});

function lineOf(o: Observation): Line | undefined {
  switch (o.type) {
    case 'dispatch_finished':
      return OUTCOME_LINES[o.outcome];
    case 'prelude_error':
      return { level: 'error', key: o.type, message: 'delivery failed before acceptance' };
    case 'conversation_action':
      return o.outcome === 'failed'
        ? { level: 'warn', key: `${o.type}:${o.action}`, message: `ctx.${o.action} failed` }
        : undefined;
    case 'admission_rejected':
      return REFUSAL_LINES[o.reason];
    case 'state_error':
      return {
        level: 'warn',
        key: `${o.type}:${o.operation}`,
        message: `state ${o.operation} failed`,
      };
    case 'lease_lost':
      return { level: 'warn', key: o.type, message: 'thread lock lease lost' };
    case 'state_capability_missing':
      return {
        level: 'warn',
        key: o.type,
        message: `state lacks ${o.capability}: only the primary event identity is marked`,
      };
    case 'adapter_notice': {
      const level = NOTICE_LEVELS[o.name] ?? (o.error !== undefined ? 'warn' : undefined);
      return level && { level, key: `notice:${o.adapter}:${o.name}`, message: o.name };
    }
    default:
      return undefined;
  }
}

function eventFields(event: EventRef): LogFields {
  return { adapter: event.adapter, tenant: event.tenant, event: event.id, shape: event.shape };
}

/** The primitive entries of a notice's `detail`, strings redacted. */
function detailFields(detail: Readonly<Record<string, unknown>> | undefined): LogFields {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(detail ?? {})) {
    if (typeof value === 'string') out[key] = redact(value);
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}

function fieldsOf(o: Observation): LogFields {
  switch (o.type) {
    case 'dispatch_finished':
      return { ...eventFields(o.event), outcome: o.outcome, ...errorFields(o.error) };
    case 'prelude_error':
      return { ...eventFields(o.event), ...errorFields(o.error) };
    case 'conversation_action':
      return { ...eventFields(o.event), action: o.action, ...errorFields(o.error) };
    case 'admission_rejected':
      return eventFields(o.event);
    case 'state_error':
      return { key: o.key, ...errorFields(o.error) };
    case 'lease_lost':
      return { key: o.lockKey, fence: o.fence, ...errorFields(o.error) };
    case 'state_capability_missing':
      return 'event' in o
        ? { capability: o.capability, ...eventFields(o.event) }
        : { capability: o.capability, route: o.route };
    case 'adapter_notice':
      return { adapter: o.adapter, ...detailFields(o.detail), ...errorFields(o.error) };
    default:
      return {};
  }
}

/** Options of `logObserver`. */
export interface LogObserverOptions {
  /** Lines per kind of trouble (an outcome, a notice name of one adapter, ...) per window. Default 5. */
  readonly burst?: number | undefined;
  /** The rate limit's window, on the observations' own `at` clock. Default 60 s. */
  readonly windowMs?: number | undefined;
}

/** Defaults of `LogObserverOptions`. */
export const DEFAULT_LOG_OBSERVER_OPTIONS = Object.freeze({ burst: 5, windowMs: 60_000 });

/** Kinds of trouble tracked at once; past it the counts start over (adapters name notices). */
const MAX_KEYS = 512;

/**
 * An observer writing warnings and errors to `logger`: failed, timed-out and preempted handlers,
 * prelude errors, admission refusals (not at shutdown), State failures, lost leases, and adapter
 * notices of warning or error level (failed outbound calls, connection trouble, deadline misses,
 * rejected signatures). At most `burst` lines per kind of trouble per `windowMs`; the first line
 * after a quiet spell carries `suppressed=N`. Lines carry ids, names and error messages, never
 * payloads or message text, with credentials redacted. What `logger` throws is contained.
 */
export function logObserver(logger: RtLogger, options: LogObserverOptions = {}): Observer {
  const burst = options.burst ?? DEFAULT_LOG_OBSERVER_OPTIONS.burst;
  const windowMs = options.windowMs ?? DEFAULT_LOG_OBSERVER_OPTIONS.windowMs;
  if (!Number.isInteger(burst) || burst < 1) {
    throw new RangeError('burst must be a positive integer');
  }
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new RangeError('windowMs must be a positive number of milliseconds');
  }
  const windows = new Map<string, { start: number; count: number; suppressed: number }>();
  return withInterest((observation) => {
    const line = lineOf(observation);
    if (line === undefined) return;
    let window = windows.get(line.key);
    if (window === undefined || observation.at - window.start >= windowMs) {
      if (window === undefined && windows.size >= MAX_KEYS) windows.clear();
      window = { start: observation.at, count: 0, suppressed: window?.suppressed ?? 0 };
      windows.set(line.key, window);
    }
    if (window.count >= burst) {
      window.suppressed += 1;
      return;
    }
    window.count += 1;
    const suppressed = window.suppressed;
    window.suppressed = 0;
    const fields = { ...fieldsOf(observation), ...(suppressed > 0 ? { suppressed } : {}) };
    try {
      logger[line.level](fields, line.message);
    } catch {
      // A logger that throws must not break dispatch, nor be retried.
    }
  }, LOGGED);
}

/**
 * The observers a runtime runs: `observers`, plus `logObserver(logger)` when a logger is given, or
 * `logObserver` over `createStderrLogger()` when `logger` is unset and `observers` is empty.
 * `logger: false` adds nothing.
 */
export function observersWithLogger(
  observers: readonly Observer[],
  logger: RtLogger | false | undefined,
): readonly Observer[] {
  if (logger === false) return observers;
  if (logger !== undefined) return [...observers, logObserver(logger)];
  return observers.length === 0 ? [logObserver(createStderrLogger())] : observers;
}
