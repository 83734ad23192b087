import type { DeliveryRetry } from '@rt/core';
import type { AckClock, PendingSet, RuntimeHandle } from '@rt/core/adapter';
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
  notice(name: SlackNoticeName, detail?: Readonly<Record<string, unknown>>, error?: unknown): void;
}

/** What a transport knows about one delivery besides its payload. */
export interface DeliveryFacts {
  /** Receipt time on the adapter's `clock` (epoch ms); becomes `RtEvent.receivedAt`. */
  readonly receivedAt: number;
  /** Slack's redelivery attempt (HTTP `x-slack-retry-*` headers, Socket Mode `retry_attempt`). */
  readonly retry?: DeliveryRetry;
  /**
   * The delivery's deadlines, started by the transport at receipt (`startAckClock` from
   * `@rt/core/adapter`, with `receivedAt` when the delivery waited before reaching the core); the
   * transport disposes it. Absent: the core starts one now and disposes it itself.
   */
  readonly clock?: AckClock;
}
