import type { RtEvent } from '@rt/core';

/** How the adapter answered an interaction, as far as later replies need to know. */
export type AckKind =
  /** Type 5: a "thinking…" message, replaced by the first reply (edit of `@original`). */
  | 'deferred_message'
  /** Type 6, or a message, modal or update from a sync handler: replies are follow-ups. */
  | 'answered'
  /** Not answered yet (a sync handler still running). Replies cannot use the token yet. */
  | 'pending';

/** What `reply` needs to remember about one interaction. */
export interface ReplyState {
  ack: AckKind;
  /** The ephemeral decision taken before the ack; follow-ups keep it. */
  readonly ephemeral: boolean;
}

/**
 * Per-interaction reply state, keyed by the dispatched `RtEvent` object (the one handlers get as
 * `ctx.event`), held weakly: it lives exactly as long as the event, never in Runtime State.
 */
export class ReplyStates {
  readonly #states = new WeakMap<RtEvent, ReplyState>();

  /** Records the state of a dispatched interaction. */
  set(event: RtEvent, state: ReplyState): void {
    this.#states.set(event, state);
  }

  /** The state of `event`, or `undefined` for an event this adapter did not dispatch. */
  get(event: RtEvent): ReplyState | undefined {
    return this.#states.get(event);
  }
}
