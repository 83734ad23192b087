import type { Observation } from '@rt/core';

/** An `adapter_notice` observation. */
export type AdapterNoticeObservation = Extract<Observation, { type: 'adapter_notice' }>;

/** Options of `ObservationLog.observed` and `until`. */
export interface ObservationWaitOptions {
  /**
   * Only observations from this index of `observations` on count (default 0: past or future
   * ones). Ignored by `until`.
   */
  readonly from?: number;
  /** Rejects the wait with `signal.reason` when it aborts; the waiter is removed either way. */
  readonly signal?: AbortSignal;
}

/** What a runtime observed, and waits on it: give `observer` to `createRuntime({ observers })`. */
export interface ObservationLog {
  /** Every observation so far, in emission order. */
  readonly observations: Observation[];
  /** Records an observation and wakes the waiters. */
  readonly observer: (observation: Observation) => void;
  /**
   * Resolves with the first observation matching `predicate` (checked now, then after every new
   * observation). Never settles when none comes and no `signal` is given.
   */
  observed(
    predicate: (observation: Observation) => boolean,
    options?: ObservationWaitOptions,
  ): Promise<Observation>;
  /** Resolves once `condition()` holds, checked now and after every observation. */
  until(condition: () => boolean, options?: Pick<ObservationWaitOptions, 'signal'>): Promise<void>;
  /** The `adapter_notice`s named `name`, so far. */
  notices(name: string): AdapterNoticeObservation[];
}

/** A new, empty observation log. */
export function observationLog(): ObservationLog {
  const observations: Observation[] = [];
  const waiters = new Set<() => void>();

  function waitFor<T>(found: () => T | undefined, signal: AbortSignal | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const done = () => {
        waiters.delete(check);
        signal?.removeEventListener('abort', onAbort);
      };
      const check = () => {
        const value = found();
        if (value === undefined) return;
        done();
        resolve(value);
      };
      const onAbort = () => {
        done();
        reject(signal?.reason);
      };
      waiters.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
      check();
    });
  }

  return {
    observations,
    observer(observation) {
      observations.push(observation);
      for (const wake of [...waiters]) wake();
    },
    observed: (predicate, options = {}) =>
      waitFor(() => observations.slice(options.from ?? 0).find(predicate), options.signal),
    until: (condition, options = {}) =>
      waitFor(() => (condition() ? true : undefined), options.signal).then(() => undefined),
    notices: (name) =>
      observations.filter(
        (o): o is AdapterNoticeObservation => o.type === 'adapter_notice' && o.name === name,
      ),
  };
}
