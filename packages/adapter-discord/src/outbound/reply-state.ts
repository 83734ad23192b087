import type { RtEvent } from '@rt/core';
import { abortable } from '@rt/core/adapter';
import { DiscordTargetError } from '../errors.js';

/** How the adapter answered an interaction, as far as later replies need to know. */
export type AckKind =
  /** Type 5: a "thinking…" message, replaced by the first reply (edit of `@original`). */
  | 'deferred_message'
  /** Type 6, or a message, modal or update from a sync handler: replies are follow-ups. */
  | 'answered'
  /** Not answered yet (a sync handler still running). Replies cannot use the token yet. */
  | 'pending';

/**
 * How long a reply waits for the transport to hand the answer over before it goes ahead anyway.
 * Past Discord's 3 s the interaction is answered or dead, and the call's own result says which.
 */
const DELIVERY_WAIT_MS = 3000;

/** What replies need to remember about one interaction. */
export class ReplyState {
  ack: AckKind = 'pending';
  /** The ephemeral decision taken before the ack; follow-ups keep it. */
  readonly ephemeral: boolean;
  /** Dispatched sync: the handler runs before the answer exists. */
  readonly sync: boolean;
  /** A modal (type 9) a sync handler opened with `ctx.openForm`: it becomes the answer. */
  form: { readonly type: number; readonly data?: Readonly<Record<string, unknown>> } | undefined;
  /** True once the transport handed the answer over. */
  #isDelivered = false;
  /** Built by the first reply that has to wait for the answer (most interactions never do). */
  #delivered: Promise<void> | undefined;
  #markDelivered: (() => void) | undefined;

  constructor(ephemeral: boolean, sync: boolean) {
    this.ephemeral = ephemeral;
    this.sync = sync;
  }

  /** Records the answer and its kind once the transport has handed it over. */
  delivered(ack: Exclude<AckKind, 'pending'>): void {
    this.ack = ack;
    this.#isDelivered = true;
    this.#markDelivered?.();
  }

  /**
   * Resolves once the answer was handed over (a deferred handler starts as soon as its delivery is
   * accepted, a few ticks before the HTTP answer is written: a follow-up sent in between could
   * reach Discord before the answer does), or after 3 s at the latest. Rejects with
   * `signal.reason` on abort, and with `DiscordTargetError` while a sync handler's own answer is
   * still pending (the token cannot be used before it; the handler returns its answer instead).
   */
  async whenDelivered(signal: AbortSignal | undefined): Promise<void> {
    if (this.sync && this.ack === 'pending') {
      throw new DiscordTargetError(
        'a sync handler cannot use the interaction token before its answer: return the answer instead',
      );
    }
    if (this.#isDelivered) {
      signal?.throwIfAborted();
      return;
    }
    this.#delivered ??= new Promise<void>((resolve) => {
      this.#markDelivered = resolve;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bounded = Promise.race([
      this.#delivered,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, DELIVERY_WAIT_MS);
        timer.unref?.();
      }),
    ]);
    try {
      await (signal === undefined ? bounded : abortable(bounded, signal));
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Per-interaction reply state, keyed by the dispatched `RtEvent` object (the one handlers get as
 * `ctx.event`), held weakly: it lives exactly as long as the event, never in Runtime State.
 */
export class ReplyStates {
  readonly #states = new WeakMap<RtEvent, ReplyState>();

  /** Starts the state of an interaction about to be dispatched. */
  open(event: RtEvent, ephemeral: boolean, sync: boolean): ReplyState {
    const state = new ReplyState(ephemeral, sync);
    this.#states.set(event, state);
    return state;
  }

  /** The state of `event`, or `undefined` for an event this adapter did not dispatch. */
  get(event: RtEvent): ReplyState | undefined {
    return this.#states.get(event);
  }
}
