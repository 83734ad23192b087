import { SLACK_ACK_TIMEOUT_MS, SLACK_RETRY_DELAYS_MS } from '@rt/testing/slack';
import { retryHorizonMs } from '../simulator/traffic-plan.js';
import type { DemoConfig } from './demo-config.js';

/** The longest delay `setTimeout` honours; a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** An inclusive range a configuration value must lie in. */
export interface Bounds {
  readonly min: number;
  readonly max: number;
  /** Whole numbers only. */
  readonly integer: boolean;
}

/**
 * The accepted range of every configuration value. The upper bounds keep every derived timer
 * (the run's time cap, the detach timeout, Slack's compressed retry delays) far below
 * `MAX_TIMER_MS`; the lower bounds keep the run meaningful (at least one event, a flood that lasts
 * at least 100 ms, Slack time never stretched).
 */
export const CONFIG_BOUNDS: Readonly<Record<keyof DemoConfig, Bounds>> = Object.freeze({
  events: { min: 1, max: 100_000, integer: true },
  commands: { min: 0, max: 100_000, integer: true },
  clicks: { min: 0, max: 100_000, integer: true },
  discordMessages: { min: 0, max: 100_000, integer: true },
  discordCommands: { min: 0, max: 100_000, integer: true },
  discordClicks: { min: 0, max: 100_000, integer: true },
  discordSuggestions: { min: 0, max: 100_000, integer: true },
  handlerMs: { min: 1, max: 60_000, integer: true },
  maxDetached: { min: 1, max: 10_000, integer: true },
  durationMs: { min: 100, max: 3_600_000, integer: true },
  timeScale: { min: 1, max: 100_000, integer: false },
  seed: { min: 0, max: 4_294_967_295, integer: true },
  heapBudgetMb: { min: 1, max: 1_048_576, integer: false },
});

/** Whether `value` is a finite number inside `bounds`. */
export function withinBounds(value: number, bounds: Bounds): boolean {
  return (
    Number.isFinite(value) &&
    (!bounds.integer || Number.isInteger(value)) &&
    value >= bounds.min &&
    value <= bounds.max
  );
}

/** How a range reads in an error message: "an integer from 1 to 60000". */
export function describeBounds(bounds: Bounds): string {
  return `${bounds.integer ? 'an integer' : 'a number'} from ${bounds.min} to ${bounds.max}`;
}

/** The timers a run arms, all derived from its configuration. */
export interface DemoTimings {
  /**
   * Hard cap on the whole run: the flood, Slack's whole retry horizon, an acknowledgement timeout
   * per attempt, three slowest handlers and 30 s of slack. Reaching it stops the run early.
   */
  readonly capMs: number;
  /** The runtime's `detachTimeoutMs`: ten mean handler times, at least 30 s. */
  readonly detachTimeoutMs: number;
  /** How long the drain waits for running handlers before the bot shuts down. */
  readonly drainMs: number;
  /** Slack's retry delays (at once, +1 min, +5 min) divided by the time scale. */
  readonly retryDelaysMs: readonly number[];
}

/** Derives the run's timers from `config` (no validation: see `validateConfig`). */
export function deriveTimings(config: DemoConfig): DemoTimings {
  return {
    capMs: Math.ceil(
      config.durationMs +
        retryHorizonMs(config.timeScale) +
        (SLACK_RETRY_DELAYS_MS.length + 1) * SLACK_ACK_TIMEOUT_MS +
        3 * config.handlerMs +
        30_000,
    ),
    detachTimeoutMs: Math.max(30_000, config.handlerMs * 10),
    drainMs: 3 * config.handlerMs + 10_000,
    retryDelaysMs: SLACK_RETRY_DELAYS_MS.map((delay) => delay / config.timeScale),
  };
}

/** Throws a `RangeError` naming the first timer of `timings` that `setTimeout` cannot honour. */
export function assertTimersFit(timings: DemoTimings): void {
  const named: [string, number][] = [
    ['time cap', timings.capMs],
    ['detachTimeoutMs', timings.detachTimeoutMs],
    ['drain wait', timings.drainMs],
    ...timings.retryDelaysMs.map((ms, i): [string, number] => [`retry #${i + 1} delay`, ms]),
  ];
  for (const [name, ms] of named) {
    if (!Number.isFinite(ms) || ms < 0 || ms > MAX_TIMER_MS) {
      throw new RangeError(
        `the ${name} would be ${ms} ms, above the ${MAX_TIMER_MS} ms timer limit`,
      );
    }
  }
}

/**
 * Checks every value of `config` against `CONFIG_BOUNDS` and every derived timer against
 * `MAX_TIMER_MS`; returns the timings. Throws a `RangeError` naming the value otherwise.
 */
export function validateConfig(config: DemoConfig): DemoTimings {
  for (const key of Object.keys(CONFIG_BOUNDS) as (keyof DemoConfig)[]) {
    const bounds = CONFIG_BOUNDS[key];
    if (!withinBounds(config[key], bounds)) {
      throw new RangeError(`${key} must be ${describeBounds(bounds)}, got ${config[key]}`);
    }
  }
  const timings = deriveTimings(config);
  assertTimersFit(timings);
  return timings;
}
