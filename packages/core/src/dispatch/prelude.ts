import type { Adapter } from '../adapter/adapter.js';
import type { AdmissionController } from '../admission/admission-controller.js';
import type { ThreadHost } from '../conversation/thread-host.js';
import { conversationStep } from '../conversation/thread-routing.js';
import { type AdmissionRejectedError, InvalidEventError, PreludeError } from '../errors.js';
import type { RtEvent } from '../event/event.js';
import { validateEvent } from '../event/validate-event.js';
import { type LockScope, scopeKeyOf } from '../locks/lock-scope.js';
import type { DispatchMode, Observation } from '../observe/observation.js';
import type { Handler } from '../routing/handler.js';
import type { Router } from '../routing/router.js';
import type { OutcomeLedger } from '../runtime/outcome-ledger.js';
import type { State } from '../state/state.js';
import { accept } from './accept.js';
import type { Delivery } from './delivery.js';
import type { DeliveryRunner } from './delivery-runner.js';
import type { DispatchOptions, DispatchResult } from './dispatch-result.js';
import { recordPreludeError, refused, rejectSoon } from './prelude-failures.js';

/** What the prelude reads and writes; the runtime owns all of it. */
export interface PreludeHost {
  readonly state: State;
  readonly dedupeTtlMs: number;
  /** Runtime-wide lock scope; unset uses the adapter's default, else `thread`. */
  readonly lockScope: LockScope | undefined;
  readonly router: Router;
  /** Subscriptions and thread state (`ctx.thread`, `onSubscribedMessage`). */
  readonly threads: ThreadHost;
  readonly admission: AdmissionController;
  readonly ledger: OutcomeLedger;
  readonly runner: DeliveryRunner;
  adapter(name: string): Adapter | undefined;
  modeFor(event: RtEvent, adapter: Adapter): DispatchMode;
  /** True once shutdown started: admission is closed. */
  closed(): boolean;
  /** Counts a dispatch call (`received`) or an acceptance (`accepted`). */
  count(what: 'received' | 'accepted'): void;
  emit(observation: Observation): void;
  /** True when anyone reads observations of `type`: those on the accept path are built only then. */
  observing(type: Observation['type']): boolean;
}

/**
 * The dispatch pipeline (docs/contract.md §3): validate, shutdown check, the conversation step (a thread that
 * ended loses its subscription; a plain message of a subscribed thread routes to
 * `onSubscribedMessage`: one State read, only for plain messages in threads), route (under
 * `kind`, else under `fallbackKind`), lock scope, admission (deferred only), one dedupe mark of
 * every identity of the event (`markIdentities`: with `aliases`, one atomic multi-key mark), then
 * the deferred or sync runner. Every refusal is observed and counted:
 * `AdmissionRejectedError` (shutdown, capacity), `PreludeError` (the State failed to mark, or the
 * lock scope function failed; nothing marked), `InvalidEventError` (the event breaks the event
 * contract; not counted as received). Never throws: every refusal is a rejection. Everything up to
 * admission runs before it returns (unless the conversation step reads the State); a delivery
 * refused there is observed and counted at once, and its promise rejects one microtask later
 * (`rejectSoon`).
 */
export function runPrelude(
  host: PreludeHost,
  received: RtEvent,
  options: DispatchOptions = {},
): Promise<DispatchResult> {
  let entry: Entry | Promise<DispatchResult>;
  try {
    entry = enter(host, received, options);
  } catch (error) {
    return Promise.reject(error);
  }
  if (entry instanceof Promise) return entry;
  if (entry.status === 'unrouted') return Promise.resolve({ status: 'unrouted' });
  if (entry.status === 'refused') return rejectSoon(entry.error);
  return accept(host, entry, options);
}

/** Where the synchronous part of the prelude left a delivery. */
type Entry =
  | { readonly status: 'unrouted' }
  | { readonly status: 'refused'; readonly error: AdmissionRejectedError }
  | Admitted;

/** A delivery past routing, lock scope and admission: what acceptance (`accept`) needs. */
export interface Admitted {
  readonly status: 'admitted';
  readonly event: RtEvent;
  readonly handlers: readonly Handler[];
  readonly adapter: Adapter;
  readonly mode: DispatchMode;
  readonly scopeKey: string;
  readonly slot: Delivery['slot'];
}

/**
 * Steps 1 to 3 when they need no State: validation, the shutdown check, routing, lock scope and
 * admission; the prelude's remaining promise when the conversation step reads the State. Throws
 * `InvalidEventError` and a lock scope's `PreludeError`.
 */
function enter(
  host: PreludeHost,
  received: RtEvent,
  options: DispatchOptions,
): Entry | Promise<DispatchResult> {
  validateEvent(received);
  const adapter = host.adapter(received.adapter);
  if (!adapter) throw new InvalidEventError(`no adapter named "${received.adapter}" is registered`);
  host.count('received');
  const mode = host.modeFor(received, adapter);
  if (host.closed()) return refused(host, received, mode, 'shutdown');
  const step = conversationRoute(host, received, mode);
  if (step !== undefined)
    return afterConversationStep(host, received, adapter, mode, step, options);
  return admit(host, received, undefined, adapter, mode);
}

/** The prelude of a delivery whose conversation step reads the State: the same steps, after it. */
async function afterConversationStep(
  host: PreludeHost,
  received: RtEvent,
  adapter: Adapter,
  mode: DispatchMode,
  step: Promise<readonly Handler[] | undefined>,
  options: DispatchOptions,
): Promise<DispatchResult> {
  const entry = admit(host, received, await step, adapter, mode);
  if (entry.status === 'unrouted') return { status: 'unrouted' };
  if (entry.status === 'refused') throw entry.error;
  return await accept(host, entry, options);
}

/**
 * Route (`subscribed`: the conversation step's handlers), lock scope and admission: an unrouted
 * delivery is recorded `unrouted`, a refused one observed and recorded (`refused`). Computed
 * before anything is reserved or marked: a failing scope function throws `PreludeError`.
 */
function admit(
  host: PreludeHost,
  received: RtEvent,
  subscribed: readonly Handler[] | undefined,
  adapter: Adapter,
  mode: DispatchMode,
): Entry {
  const { event, handlers } =
    subscribed === undefined
      ? route(host.router, received)
      : { event: received, handlers: subscribed };
  if (handlers.length === 0) {
    host.ledger.note(event, mode, { outcome: 'unrouted' }, event.receivedAt, false);
    return UNROUTED;
  }
  const scopeKey = scopeKeyFor(host, event, adapter, mode);
  let slot: Delivery['slot'];
  if (mode === 'deferred') {
    const admitted = host.admission.tryAcquire(event.adapter, event.tenant);
    if (typeof admitted === 'string') return refused(host, event, mode, admitted);
    slot = admitted;
  }
  return { status: 'admitted', event, handlers, adapter, mode, scopeKey, slot };
}

const UNROUTED: Entry = Object.freeze({ status: 'unrouted' });

/**
 * The handlers of `event`: those selecting it under its `kind`, else, when it names a
 * `fallbackKind`, those selecting it under that kind, in which case the event is dispatched (and
 * observed) with `kind` set to it. An event nothing selects keeps its own kind.
 */
function route(router: Router, event: RtEvent): { event: RtEvent; handlers: readonly Handler[] } {
  const handlers = router.match(event);
  if (handlers.length > 0 || event.fallbackKind === undefined) return { event, handlers };
  const fallback: RtEvent = { ...event, kind: event.fallbackKind };
  const fallbackHandlers = router.match(fallback);
  return fallbackHandlers.length > 0
    ? { event: fallback, handlers: fallbackHandlers }
    : { event, handlers };
}

/**
 * The conversation step (`conversationStep`): `undefined` without State work (no `await`, the
 * common case), else its result. A State failure is a prelude error (nothing reserved or marked,
 * the platform retries); shutdown starting meanwhile refuses the event.
 */
function conversationRoute(
  host: PreludeHost,
  event: RtEvent,
  mode: DispatchMode,
): Promise<readonly Handler[] | undefined> | undefined {
  const step = conversationStep(host.threads, host.router, event);
  if (step === undefined) return undefined;
  return step.then(
    (handlers) => {
      if (host.closed()) throw refused(host, event, mode, 'shutdown').error;
      return handlers;
    },
    (cause: unknown) => {
      const error = new PreludeError(
        `could not check the thread subscription of event ${event.id}: the State failed`,
        { cause },
      );
      recordPreludeError(host, event, mode, error, false);
      throw error;
    },
  );
}

/**
 * The delivery's scope key. A failing scope function is a prelude error like a failing State: it
 * throws `PreludeError` (cause: the function's error), observed as `prelude_error`, outcome
 * `prelude-error`, nothing marked, so adapters answer it as "unavailable, retry".
 */
function scopeKeyFor(host: PreludeHost, event: RtEvent, adapter: Adapter, mode: DispatchMode) {
  try {
    return scopeKeyOf(event, host.lockScope ?? adapter.defaultLockScope ?? 'thread');
  } catch (cause) {
    const error = new PreludeError(`lock scope of event ${event.id} failed: ${String(cause)}`, {
      cause,
    });
    recordPreludeError(host, event, mode, error, false);
    throw error;
  }
}
