import type { Outcome } from '../outcomes/outcome.js';
import type { Observation, Observer } from './observation.js';

/**
 * What one of rt's own observers reads: the observation types, and of `dispatch_finished` only
 * these outcomes. The runtime skips building an observation no observer reads; an observer
 * without an interest (every user's) reads everything.
 */
export interface ObserverInterest {
  readonly types: ReadonlySet<Observation['type']>;
  readonly outcomes: ReadonlySet<Outcome>;
}

const INTEREST = Symbol('rt.observerInterest');

/** Marks `observer` (one of rt's own) as reading only `interest`; returns it. */
export function withInterest(observer: Observer, interest: ObserverInterest): Observer {
  Object.defineProperty(observer, INTEREST, { value: interest });
  return observer;
}

function interestOf(observer: Observer): ObserverInterest | undefined {
  return (observer as { [INTEREST]?: ObserverInterest })[INTEREST];
}

/**
 * Fans observations out to observers. An observer that throws or rejects never breaks dispatch:
 * its failure is counted and reported to `onObserverError` (itself contained). So is a failure
 * of an observer's `aroundHandler` (`failed`), reported with no observation.
 */
export class ObserverSet {
  #observers: readonly Observer[];
  #onError: (error: unknown, observation: Observation | undefined) => void;
  #failures = 0;
  /** Some observer reads everything. */
  #everything = false;
  readonly #types = new Set<Observation['type']>();
  readonly #outcomes = new Set<Outcome>();

  constructor(
    observers: readonly Observer[],
    onError: (error: unknown, observation: Observation | undefined) => void = () => {},
  ) {
    this.#observers = [...observers];
    this.#onError = onError;
    for (const observer of this.#observers) {
      const interest = interestOf(observer);
      if (interest === undefined) {
        this.#everything = true;
        continue;
      }
      for (const type of interest.types) this.#types.add(type);
      for (const outcome of interest.outcomes) this.#outcomes.add(outcome);
    }
  }

  /** True when some observer reads observations of `type`: callers build one only then. */
  wants(type: Observation['type']): boolean {
    return this.#everything || this.#types.has(type);
  }

  /** True when some observer reads the `dispatch_finished` of an `outcome`. */
  wantsFinished(outcome: Outcome): boolean {
    return (
      this.#everything || (this.#types.has('dispatch_finished') && this.#outcomes.has(outcome))
    );
  }

  /** True when there is at least one observer: callers build an observation only then. */
  get active(): boolean {
    return this.#observers.length > 0;
  }

  /** Number of observer calls that threw or rejected so far. */
  get failures(): number {
    return this.#failures;
  }

  /** Delivers `observation` to every observer; never throws. */
  emit(observation: Observation): void {
    for (const observer of this.#observers) {
      try {
        const result = observer(observation);
        if (result && typeof (result as Promise<void>).then === 'function') {
          (result as Promise<void>).then(undefined, (error: unknown) =>
            this.#fail(error, observation),
          );
        }
      } catch (error) {
        this.#fail(error, observation);
      }
    }
  }

  /** Counts and reports a failure of an observer's `aroundHandler`; never throws. */
  failed(error: unknown): void {
    this.#fail(error, undefined);
  }

  #fail(error: unknown, observation: Observation | undefined): void {
    this.#failures += 1;
    try {
      this.#onError(error, observation);
    } catch {
      // The error hook is contained too: observation must never break dispatch.
    }
  }
}
