import type { AdmissionRejectionReason, ConversationActionName } from '../errors.js';
import type { EventRef } from '../event/event.js';
import type { Outcome } from '../outcomes/outcome.js';

/** How a delivery was dispatched. */
export type DispatchMode = 'sync' | 'deferred';

/**
 * A typed record the runtime (or an adapter, through `RuntimeHandle.observe`) emits to its
 * observers. Discriminated on `type`. `at` and every `...At` are epoch milliseconds;
 * `receivedAt` is the event's own `RtEvent.receivedAt` (when the adapter received it), so an
 * observer can time a delivery from receipt.
 */
export type Observation =
  | {
      /** Accepted: past admission and its dedupe mark; `at` is just after the mark. */
      readonly type: 'dispatch_admitted';
      readonly at: number;
      readonly receivedAt: number;
      readonly event: EventRef;
      readonly mode: DispatchMode;
    }
  | {
      readonly type: 'admission_rejected';
      readonly at: number;
      readonly receivedAt: number;
      readonly event: EventRef;
      readonly adapter: string;
      readonly tenant: string;
      readonly reason: AdmissionRejectionReason;
      readonly mode: DispatchMode;
    }
  | {
      readonly type: 'dispatch_finished';
      readonly at: number;
      readonly receivedAt: number;
      readonly event: EventRef;
      readonly mode: DispatchMode;
      readonly outcome: Outcome;
      /**
       * Ms to this outcome: an accepted delivery's from its acceptance (`dispatch_admitted.at`),
       * any other's from receipt. From receipt for every delivery: `at - receivedAt`.
       */
      readonly durationMs: number;
      /**
       * When its handlers started (epoch ms); `undefined` when no handler ran (refused,
       * duplicate, dropped, superseded, ended while waiting). A burst member carries its batch's.
       */
      readonly handlerStartedAt?: number;
      /**
       * Ms from `handlerStartedAt` until the last of its handlers settled; `undefined` when no
       * handler ran, or when shutdown abandoned it still running.
       */
      readonly handlerMs?: number;
      readonly error?: unknown;
    }
  | {
      readonly type: 'lock_conflict';
      readonly at: number;
      readonly event: EventRef;
      readonly lockKey: string;
    }
  | {
      readonly type: 'superseded';
      readonly at: number;
      readonly event: EventRef;
      readonly by: EventRef;
      readonly scope: string;
    }
  | {
      readonly type: 'lease_lost';
      readonly at: number;
      readonly lockKey: string;
      readonly fence: number;
      readonly error: unknown;
    }
  | {
      /** The prelude failed before acceptance (dedupe mark, lock scope); nothing was marked. */
      readonly type: 'prelude_error';
      readonly at: number;
      readonly receivedAt: number;
      readonly event: EventRef;
      readonly error: unknown;
    }
  | {
      /** A State call outside the prelude failed (renewal, release); the runtime carried on. */
      readonly type: 'state_error';
      readonly at: number;
      readonly operation: 'acquireLock' | 'renewLock' | 'releaseLock';
      readonly key: string;
      readonly error: unknown;
    }
  | {
      /**
       * The runtime wanted an optional State capability the State lacks and fell back; emitted
       * once per runtime and capability. `MultiKeyMark`: `event` (the first such) carried
       * `aliases`, and the runtime marked its primary identity alone (`markEvent`), so a message
       * the platform sends under two event ids is handled twice. ADR 0012. `Subscriptions` and
       * `FencedThreadState` (docs/conversations.md): a handler of `event` used `ctx.thread` and
       * got `StateCapabilityMissingError`.
       */
      readonly type: 'state_capability_missing';
      readonly at: number;
      readonly capability: 'MultiKeyMark' | 'Subscriptions' | 'FencedThreadState';
      readonly event: EventRef;
    }
  | {
      /**
       * The same, for a route registration: `onSubscribedMessage` (route `subscribed_message`)
       * needs `Subscriptions`, and threw `StateCapabilityMissingError`. Carries no event.
       */
      readonly type: 'state_capability_missing';
      readonly at: number;
      readonly capability: 'Subscriptions';
      readonly route: 'subscribed_message';
    }
  | {
      readonly type: 'shutdown_started' | 'shutdown_finished';
      readonly at: number;
    }
  | {
      /**
       * A handler's conversation action (`ctx.reply`, `ctx.post`, ...) ended: `ok`, `failed` (the
       * platform or the network refused it), `aborted` (its signal fired), `unsupported`
       * (`UnsupportedActionError`, nothing sent) or `invalid` (a `MessageLimitError` or a bad
       * argument, nothing sent). `durationMs` from the call to its end. Emitted only when the
       * runtime has observers.
       */
      readonly type: 'conversation_action';
      readonly at: number;
      readonly event: EventRef;
      readonly action: ConversationActionName;
      readonly outcome: 'ok' | 'failed' | 'aborted' | 'unsupported' | 'invalid';
      readonly durationMs: number;
      readonly error?: unknown;
    }
  | {
      /**
       * A streamed reply (`ctx.stream`) ended, before its handler's outcome. `status`
       * `interrupted`: the handler's signal aborted (lease lost, shutdown, detach timeout) and the
       * reply ends with the interrupted marker; `failed`: the source threw (error marker) or the
       * platform refused; `unfinished`: the final text or marker did not land within the stream's
       * `finishTimeoutMs`. `path` is the platform path the adapter took (`slack-stream`,
       * `slack-update`, `discord-edit`, ...).
       */
      readonly type: 'stream_finished';
      readonly at: number;
      readonly event: EventRef;
      readonly adapter: string;
      readonly path: string;
      readonly status: 'completed' | 'interrupted' | 'failed' | 'unfinished';
      /** Characters read from the source. */
      readonly chars: number;
      /** Platform writes (rate-limited attempts included) and how many were rate-limited. */
      readonly writes: number;
      readonly rateLimited: number;
      readonly durationMs: number;
      readonly error?: unknown;
    }
  | {
      /** Something an adapter wants operators to see (busy signal failed, rate-limit notice...). */
      readonly type: 'adapter_notice';
      readonly at: number;
      readonly adapter: string;
      readonly name: string;
      readonly detail?: Readonly<Record<string, unknown>>;
      readonly error?: unknown;
    };

/** The `type` of every observation. */
export type ObservationType = Observation['type'];

/** Receives observations. May be sync or async; what it throws or rejects is contained. */
export type Observer = (observation: Observation) => void | Promise<void>;
