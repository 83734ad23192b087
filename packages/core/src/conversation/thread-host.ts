import { StateCapabilityMissingError } from '../errors.js';
import { eventRef, type RtEvent } from '../event/event.js';
import type { Observation } from '../observe/observation.js';
import type { State } from '../state/state.js';
import {
  type FencedThreadState,
  hasFencedThreadState,
  hasSubscriptions,
  type Subscriptions,
} from '../state/thread-capabilities.js';

/** The conversation capabilities a runtime can miss. */
export type ThreadCapability = 'Subscriptions' | 'FencedThreadState';

/**
 * What `ctx.thread` and subscribed routing need from the runtime: its State and its observers.
 * One per runtime; it remembers which missing capabilities it already reported.
 */
export class ThreadHost {
  readonly state: State;
  readonly #emit: (observation: Observation) => void;
  readonly #reported = new Set<ThreadCapability>();

  constructor(state: State, emit: (observation: Observation) => void) {
    this.state = state;
    this.#emit = emit;
  }

  /**
   * The State as `Subscriptions`, or throws `StateCapabilityMissingError` (reported once; without
   * `event` the caller is the `subscribed_message` route registration).
   */
  subscriptions(event?: RtEvent): State & Subscriptions {
    if (hasSubscriptions(this.state)) return this.state;
    throw this.#missing('Subscriptions', event);
  }

  /** The State as `FencedThreadState`, or throws `StateCapabilityMissingError` (reported once). */
  threadState(event: RtEvent): State & FencedThreadState {
    if (hasFencedThreadState(this.state)) return this.state;
    throw this.#missing('FencedThreadState', event);
  }

  #missing(capability: ThreadCapability, event: RtEvent | undefined): StateCapabilityMissingError {
    if (!this.#reported.has(capability)) {
      this.#reported.add(capability);
      const at = Date.now();
      this.#emit(
        event === undefined
          ? {
              type: 'state_capability_missing',
              at,
              capability: 'Subscriptions',
              route: 'subscribed_message',
            }
          : { type: 'state_capability_missing', at, capability, event: eventRef(event) },
      );
    }
    return new StateCapabilityMissingError(capability);
  }
}
