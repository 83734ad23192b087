import type { DispatchMode, DispatchOptions, DispatchResult, Observation, RtEvent } from '@rt/core';
import type { RuntimeHandle } from '@rt/core/adapter';

/** What a `fakeRuntimeHandle`'s `dispatch` does with each event: the test's script. */
export type FakeDispatch = (event: RtEvent, options?: DispatchOptions) => Promise<DispatchResult>;

/** A `RuntimeHandle` that records what an adapter did with it. */
export interface FakeRuntimeHandle extends RuntimeHandle {
  /** Every event the adapter dispatched, in order. */
  readonly dispatched: RtEvent[];
  /** The options of each dispatch, index-aligned with `dispatched`. */
  readonly dispatchOptions: (DispatchOptions | undefined)[];
  /** Every observation the adapter emitted (its `adapter_notice`s), in order. */
  readonly observed: Observation[];
  /** Replaceable: the mode the adapter is told each event gets. Default always `'deferred'`. */
  modeFor(event: RtEvent): DispatchMode;
  /** Settable: what the adapter reads as `shuttingDown`. Default false. */
  shuttingDown: boolean;
}

/**
 * A `RuntimeHandle` for an adapter's unit tests, without a runtime: attach it with
 * `adapter.attach(handle)`, drive the adapter, then read `dispatched` and `observed`. Each
 * dispatch is recorded and then answered by `dispatch` (default: `{ status: 'unrouted' }`), so a
 * test scripts any result or error (`throw new AdmissionRejectedError(...)`, a held promise...).
 * Nothing else happens: no routing, admission, marking or handlers.
 */
export function fakeRuntimeHandle(
  dispatch: FakeDispatch = async () => ({ status: 'unrouted' }),
): FakeRuntimeHandle {
  const dispatched: RtEvent[] = [];
  const dispatchOptions: (DispatchOptions | undefined)[] = [];
  const observed: Observation[] = [];
  return {
    dispatched,
    dispatchOptions,
    observed,
    dispatch: (event, options) => {
      dispatched.push(event);
      dispatchOptions.push(options);
      return dispatch(event, options);
    },
    observe: (observation) => {
      observed.push(observation);
    },
    modeFor: () => 'deferred',
    shuttingDown: false,
  };
}
