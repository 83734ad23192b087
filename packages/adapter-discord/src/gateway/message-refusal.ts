import type { RtEvent } from '@rt/core';
import { FollowUpRunner } from '@rt/core/adapter';
import type { MessageTarget } from '../normalize/message-target.js';
import type { DiscordOutbound } from '../outbound/discord-outbound.js';
import { truncate } from '../respond/callback.js';
import type { MessageBusySignal } from './gateway-options.js';

/** The visible busy (or unavailable) signal for one refused gateway message. */
export interface MessageRefusal {
  readonly event: RtEvent;
  readonly target: MessageTarget;
  readonly text: string;
}

/** What a `MessageRefusals` runner needs. */
export interface MessageRefusalOptions {
  readonly outbound: DiscordOutbound;
  readonly via: MessageBusySignal;
  /** The emoji of `via: 'reaction'`. */
  readonly reaction: string;
  /** Budget of each signal, from its start. */
  readonly budgetMs: number;
  /** Reports a failed signal (`busy_signal_failed`). */
  onFailure(refusal: MessageRefusal, via: MessageBusySignal, error: unknown): void;
}

/**
 * The gateway's answer to a refused message (docs/contract.md §9.2, `messageCreate` row): Discord has nothing
 * to acknowledge and never redelivers, so the user is told: a reply to the message with the text
 * (mentioning nobody), or the bot's reaction, as configured. Best-effort and time-bounded on the
 * kit's `FollowUpRunner`: each signal is cut at `budgetMs`, and a failure (a 403 in a channel the
 * bot may not write to, a timeout) is observed, never thrown.
 */
export class MessageRefusals {
  readonly #runner: FollowUpRunner<MessageRefusal>;

  constructor(options: MessageRefusalOptions) {
    const { outbound, via, reaction } = options;
    this.#runner = new FollowUpRunner<MessageRefusal>({
      budgetMs: options.budgetMs,
      budgetMessage: `busy signal ran past busySignalTimeoutMs (${options.budgetMs} ms)`,
      send: async (refusal, signal) => {
        const { channel, messageId } = refusal.target;
        if (via === 'reaction') {
          await outbound.react(channel, messageId, reaction, { signal });
          return;
        }
        await outbound.replyTo(
          channel,
          messageId,
          { content: truncate(refusal.text, 2000), allowed_mentions: { parse: [] } },
          { signal },
        );
      },
      onFailure: (refusal, error) => options.onFailure(refusal, via, error),
    });
  }

  /** Signals `refusal` in the background. */
  start(refusal: MessageRefusal): void {
    this.#runner.start(refusal);
  }

  /** Signals in flight. */
  get pending(): number {
    return this.#runner.pending;
  }

  /** Waits for the signals started before the call (each bounded); rejects with `signal.reason`. */
  drain(signal?: AbortSignal): Promise<void> {
    return this.#runner.drain(signal);
  }
}
