import type { FollowUpRunner, NoticeEmitter, PendingSet, RuntimeHandle } from '@rt/core/adapter';
import type { DiscordNoticeName } from '../notices.js';
import type { ResolvedDiscordOptions } from '../options.js';
import type { ReplyStates } from '../outbound/reply-state.js';
import type { LateBusySignal } from '../respond/late-refusal.js';

/** What the transport-neutral inbound core needs from its adapter. */
export interface InboundDeps {
  readonly options: ResolvedDiscordOptions;
  /** The attached runtime, or `undefined` before `attach`. */
  runtime(): RuntimeHandle | undefined;
  /** Late busy signals (bounded by `busySignalTimeoutMs`). */
  readonly followUps: FollowUpRunner<LateBusySignal>;
  /** Answers being built from a dispatch (each bounded by `ackDeadlineMs`), for `stop()`. */
  readonly answering: PendingSet;
  readonly replies: ReplyStates;
  /** Emits an `adapter_notice` (nothing before `attach`); never throws. */
  readonly notice: NoticeEmitter<DiscordNoticeName>;
}
