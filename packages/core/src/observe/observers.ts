import type { Observation, Observer } from './observation.js';

/**
 * Fans observations out to observers. An observer that throws or rejects never breaks dispatch:
 * its failure is counted and reported to `onObserverError` (itself contained). So is a failure
 * of an observer's `aroundHandler` (`failed`), reported with no observation.
 */
export class ObserverSet {
  #observers: readonly Observer[];
  #onError: (error: unknown, observation: Observation | undefined) => void;
  #failures = 0;

  constructor(
    observers: readonly Observer[],
    onError: (error: unknown, observation: Observation | undefined) => void = () => {},
  ) {
    this.#observers = [...observers];
    this.#onError = onError;
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
