/**
 * Shared plumbing of the State conformance suite: options, per-test State tracking and cleanup,
 * unique keys, and small async helpers.
 */
import { randomUUID } from 'node:crypto';
import type { State } from '@rt/core';
import { afterEach } from 'vitest';

/** How `runStateConformance` exercises an implementation. */
export interface StateConformanceOptions {
  /**
   * The short TTL (ms) of the expiry tests. Each waits about twice this long for an expiry, and a
   * step that must land before an expiry gets at least two thirds of it, so it must comfortably
   * exceed a few round trips to the store under load. Default 100.
   */
  shortTtlMs?: number;
  /** How many operations the race tests start at once. Default 100. */
  concurrency?: number;
  /**
   * Also require and test the optional `LockWakeups` capability (`waitForRelease`).
   * Default false.
   */
  lockWakeups?: boolean;
  /**
   * Also require and test the optional `MultiKeyMark` capability (`markEvents`), including a
   * property test of concurrent marks of overlapping key sets. Default false.
   */
  multiKeyMark?: boolean;
  /**
   * Also require and test the optional `Subscriptions` capability (thread subscriptions).
   * Default false.
   */
  subscriptions?: boolean;
  /**
   * Also require and test the optional `FencedThreadState` capability, including a property test
   * of two writers with rising and falling fences. Default false.
   */
  threadState?: boolean;
  /** How many random plans each property test (`markEvents`, thread state) checks. Default 100. */
  propertyRuns?: number;
}

/** The defaults of `StateConformanceOptions`. */
export const DEFAULT_STATE_CONFORMANCE_OPTIONS: Readonly<Required<StateConformanceOptions>> =
  Object.freeze({
    shortTtlMs: 100,
    concurrency: 50,
    lockWakeups: false,
    multiKeyMark: false,
    subscriptions: false,
    threadState: false,
    propertyRuns: 100,
  });

/** What every conformance test group receives. */
export interface ConformanceContext {
  readonly options: Readonly<Required<StateConformanceOptions>>;
  /** A fresh State from the factory; closed after the current test. */
  open(): Promise<State>;
  /** A key unique to this run, so a shared store never sees two tests collide. */
  key(label: string): string;
}

/** Builds the context and registers the `afterEach` that closes every State a test opened. */
export function createConformanceContext(
  makeState: () => Promise<State> | State,
  options: StateConformanceOptions = {},
): ConformanceContext {
  const resolved = Object.freeze({ ...DEFAULT_STATE_CONFORMANCE_OPTIONS, ...options });
  const opened: State[] = [];
  const run = randomUUID().slice(0, 8);
  let counter = 0;

  afterEach(async () => {
    const states = opened.splice(0);
    await Promise.all(states.map((state) => state.close()));
  });

  return {
    options: resolved,
    async open() {
      const state = await makeState();
      opened.push(state);
      return state;
    },
    key(label) {
      counter += 1;
      return `conformance:${run}:${counter}:${label}`;
    },
  };
}

/** Resolves after `ms` milliseconds of real time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `count` calls of `fn` at once and returns their results in order. */
export function concurrently<T>(count: number, fn: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => fn(index)));
}
