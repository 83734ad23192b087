import type { DeliveryRetry } from '@rt/core';
import type { AckClock, NoticeEmitter, PendingSet, RuntimeHandle } from '@rt/core/adapter';
import type { SlackNoticeName } from '../notices.js';
import type { ResolvedSlackOptions } from '../options.js';
import type { SlackFollowUps } from '../respond/follow-up.js';

/** What the transport-neutral Slack core needs from its adapter. */
export interface SlackCoreDeps {
  readonly options: ResolvedSlackOptions;
  /** The attached runtime, or `undefined` before `attach`. */
  runtime(): RuntimeHandle | undefined;
  /** Busy-signal follow-ups, started after the acknowledgement is built. */
  readonly followUps: SlackFollowUps;
  /**
   * Acknowledgements being built from a dispatch (each bounded by `ackDeadlineMs`), tracked until
   * the acknowledgement and its follow-up, if any, have been handed over, so `stop()` can wait.
   */
  readonly answering: PendingSet;
  /** Emits an `adapter_notice` (nothing before `attach`; never throws). */
  readonly notice: NoticeEmitter<SlackNoticeName>;
}

/** What a transport knows about one delivery besides its payload. */
export interface DeliveryFacts {
  /**
   * Receipt time read from the adapter's `clock` on arrival (epoch ms); becomes
   * `RtEvent.receivedAt`, and the ack deadlines count from it on that same clock.
   */
  readonly receivedAt: number;
  /** Slack's redelivery attempt (HTTP `x-slack-retry-*` headers, Socket Mode `retry_attempt`). */
  readonly retry?: DeliveryRetry;
  /**
   * The delivery's deadlines, when the transport started them on arrival (the HTTP flow); the
   * transport disposes it. Absent (Socket Mode): they start from `receivedAt` on the adapter's
   * `clock` when the payload is dispatched.
   */
  readonly clock?: AckClock;
}
