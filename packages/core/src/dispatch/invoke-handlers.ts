import type { Adapter, PostedMessage } from '../adapter/adapter.js';
import type { ContextActions, EphemeralTarget, PostTarget } from '../conversation/actions.js';
import { type ActionObserver, legacyReply, runAction } from '../conversation/context-actions.js';
import { type FormErrors, isFormErrors } from '../conversation/form.js';
import type { Message } from '../conversation/message.js';
import { createThreadContext, type ThreadContext } from '../conversation/thread-context.js';
import type { ThreadHost } from '../conversation/thread-host.js';
import { hasErrorCode } from '../errors.js';
import type { RtEvent } from '../event/event.js';
import type { HeldLock } from '../locks/lock-manager.js';
import type { HandlerCaller } from '../observe/handler-instrumentation.js';
import type { HandledResult, Outcome } from '../outcomes/outcome.js';
import type { HandlerContext } from '../routing/handler.js';
import { Cancellation, type CancelSource } from '../util/cancellation.js';
import { streamFromContext } from './context-stream.js';
import type { Delivery } from './delivery.js';

/** What a strategy adds to the handler context. */
export interface InvokeExtras {
  readonly lock?: HeldLock;
  readonly skipped?: readonly RtEvent[];
  readonly batch?: readonly RtEvent[];
  /** Further signals that end the handler's run (e.g. a burst batch's own controller). */
  readonly signals?: readonly CancelSource[];
  /** burst: every member delivery the run serves (the invoked delivery first); default itself. */
  readonly members?: readonly Delivery[];
}

/** Maps the reason a handler's signal aborted with to its terminal outcome. */
export function outcomeForAbort(reason: unknown): Outcome {
  if (hasErrorCode(reason, 'RT_PREEMPTED')) return 'preempted';
  if (hasErrorCode(reason, 'RT_SHUTDOWN')) return 'shutdown';
  return 'timed-out';
}

/**
 * What the runner lends every run, fixed per runtime: one object, no closure per delivery.
 */
export interface RunHooks {
  /** The observers' `aroundHandler`s, composed; `undefined`: handlers are called directly. */
  readonly callHandler: HandlerCaller | undefined;
  /** What `ctx.thread` works with. */
  readonly threads: ThreadHost | undefined;
  /** Emits handlers' `conversation_action` observations; `undefined`: nobody observes. */
  readonly observeActions: ActionObserver | undefined;
  /** Called once, right before the first handler is called. */
  started(delivery: Delivery, extras: InvokeExtras): void;
  /** The run is over (on every path): called before `finished`, and even when the run threw. */
  ended(delivery: Delivery, extras: InvokeExtras): void;
  /** The run's result, once `ended` ran; what it returns is what the run resolves with. */
  finished(delivery: Delivery, extras: InvokeExtras, result: HandledResult): HandledResult;
}

/** Hooks of a run nobody instruments or keeps books on (handlers called directly). */
const PLAIN_RUN: RunHooks = Object.freeze({
  callHandler: undefined,
  threads: undefined,
  observeActions: undefined,
  started: () => {},
  ended: () => {},
  finished: (_delivery: Delivery, _extras: InvokeExtras, result: HandledResult) => result,
});

/**
 * Runs `delivery`'s handlers one after another, in registration order, under one context.
 * A handler that throws makes the result `failed` (first error kept) but the others still run;
 * once the signal aborts no further handler starts, and the result is the abort's outcome
 * (`timed-out`, `preempted`, `shutdown`) however the running handler ended. Resolves only after
 * the last started handler's promise settled; never rejects. A handler that returns no promise
 * (a thenable) is not awaited: a synchronous handler costs no promise hop. With
 * `hooks.callHandler` (the observers' `aroundHandler`s), each handler is called through it. The
 * run's cancellation is lazy: `ctx.signal` becomes a real `AbortSignal` only when a handler (or
 * `ctx.reply`) reads it. `hooks.started` is called once, right before the first handler is
 * called; never when the signal had aborted before any handler started (then no handler ran).
 */
export async function invokeHandlers(
  delivery: Delivery,
  extras: InvokeExtras = {},
  hooks: RunHooks = PLAIN_RUN,
): Promise<HandledResult> {
  const controller = new Cancellation();
  let response: unknown;
  let error: unknown;
  let failed = false;
  let started = false;
  const { callHandler } = hooks;
  try {
    const detach =
      extras.signals === undefined
        ? controller.follow2(delivery.controller, extras.lock?.cancellation)
        : controller.follow([
            delivery.controller,
            ...(extras.signals ?? []),
            extras.lock?.cancellation,
          ]);
    const ctx = new RunContext(delivery, controller, extras, hooks.threads, hooks.observeActions);
    try {
      for (const handler of delivery.handlers) {
        if (controller.aborted) break;
        if (!started) {
          started = true;
          hooks.started(delivery, extras);
        }
        try {
          let value = callHandler ? callHandler(handler, ctx) : handler(ctx);
          if (isThenable(value)) value = await value;
          if (delivery.mode === 'deferred' && isFormErrors(value)) {
            // Nobody reads a deferred handler's value: the adapter shows the errors itself.
            await ctx.showFormErrors(value);
          } else if (response === undefined && value !== undefined) response = value;
        } catch (thrown) {
          if (!failed) {
            failed = true;
            error = thrown;
          }
        }
      }
    } finally {
      detach();
    }
  } finally {
    hooks.ended(delivery, extras);
  }
  let result: HandledResult;
  if (controller.aborted) {
    const reason: unknown = controller.reason;
    result = { outcome: outcomeForAbort(reason), error: reason };
  } else result = failed ? { outcome: 'failed', error } : { outcome: 'completed', response };
  return hooks.finished(delivery, extras, result);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Shared by every context without skipped events (frozen: handlers cannot change it). */
const NO_EVENTS: readonly RtEvent[] = Object.freeze([]);

/**
 * One handler run's context. `signal` is a prototype getter over the run's lazy cancellation (no
 * closure or accessor per delivery); `reply` stays an own property so it can be destructured.
 */
type Signalled = { readonly signal?: AbortSignal } | undefined;

class RunContext implements HandlerContext {
  readonly event: RtEvent;
  readonly mode: Delivery['mode'];
  readonly lock: HandlerContext['lock'];
  readonly skipped: readonly RtEvent[];
  readonly batch: readonly RtEvent[];
  readonly adapter: Adapter;
  readonly reply: HandlerContext['reply'];
  readonly #cancellation: Cancellation;
  readonly #threads: ThreadHost | undefined;
  #thread: ThreadContext | undefined;
  readonly #observe: ActionObserver;

  constructor(
    delivery: Delivery,
    cancellation: Cancellation,
    extras: InvokeExtras,
    threads: ThreadHost | undefined,
    observe: ActionObserver,
  ) {
    const { event, adapter } = delivery;
    this.event = event;
    this.mode = delivery.mode;
    this.lock = extras.lock ? { key: extras.lock.key, fence: extras.lock.fence } : undefined;
    this.skipped = extras.skipped ?? NO_EVENTS;
    this.batch = extras.batch ?? [event];
    this.adapter = adapter;
    this.#cancellation = cancellation;
    this.#threads = threads;
    this.#observe = observe;
    this.reply = (message, options) => {
      const signal = options?.signal ?? cancellation.signal;
      return runAction(
        adapter,
        event,
        observe,
        'reply',
        signal,
        (actions) => actions.reply(event, message, { signal }),
        () => legacyReply(adapter, event, message, signal),
      );
    };
  }

  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }

  /** Built on first read, so a handler that never uses its thread costs nothing. */
  get thread(): ThreadContext {
    if (this.#thread === undefined) {
      if (this.#threads === undefined) throw new Error('ctx.thread needs the runtime thread host');
      const cancellation = this.#cancellation;
      this.#thread = createThreadContext(this.#threads, {
        event: this.event,
        fence: this.lock?.fence,
        abortReason: () => (cancellation.aborted ? { reason: cancellation.reason } : undefined),
      });
    }
    return this.#thread;
  }

  stream(
    source: Parameters<HandlerContext['stream']>[0],
    options?: Parameters<HandlerContext['stream']>[1],
  ): Promise<PostedMessage> {
    // The run's signal is read only when the caller gives none (building it costs an AbortSignal).
    const signal = options?.signal ?? this.#cancellation.signal;
    return streamFromContext(this.adapter, this.event, signal, source, options);
  }

  #signal(options: Signalled): AbortSignal {
    return options?.signal ?? this.#cancellation.signal;
  }

  post(message: Message, options?: PostTarget & Signalled): Promise<PostedMessage> {
    const signal = this.#signal(options);
    const target = { channel: options?.channel, thread: options?.thread, signal };
    return runAction(this.adapter, this.event, this.#observe, 'post', signal, (actions) =>
      actions.post(this.event, message, target),
    );
  }

  edit(posted: PostedMessage, message: Message, options?: Signalled): Promise<PostedMessage> {
    const signal = this.#signal(options);
    return runAction(this.adapter, this.event, this.#observe, 'edit', signal, (actions) =>
      actions.edit(this.event, posted, message, { signal }),
    );
  }

  delete(posted: PostedMessage, options?: Signalled): Promise<void> {
    const signal = this.#signal(options);
    return runAction(this.adapter, this.event, this.#observe, 'delete', signal, (actions) =>
      actions.delete(this.event, posted, { signal }),
    );
  }

  react(emoji: string, target?: PostedMessage, options?: Signalled): Promise<void> {
    const signal = this.#signal(options);
    return runAction(this.adapter, this.event, this.#observe, 'react', signal, (actions) =>
      actions.react(this.event, emoji, target, { signal }),
    );
  }

  unreact(emoji: string, target?: PostedMessage, options?: Signalled): Promise<void> {
    const signal = this.#signal(options);
    return runAction(this.adapter, this.event, this.#observe, 'unreact', signal, (actions) =>
      actions.unreact(this.event, emoji, target, { signal }),
    );
  }

  ephemeral(message: Message, options?: EphemeralTarget & Signalled): Promise<void> {
    const signal = this.#signal(options);
    return runAction(this.adapter, this.event, this.#observe, 'ephemeral', signal, (actions) =>
      actions.ephemeral(this.event, message, { user: options?.user, signal }),
    );
  }

  typing(options?: Signalled): Promise<void> {
    const signal = this.#signal(options);
    return runAction(this.adapter, this.event, this.#observe, 'typing', signal, (actions) =>
      actions.typing(this.event, { signal }),
    );
  }

  openForm(form: Parameters<ContextActions['openForm']>[0], options?: Signalled): Promise<void> {
    const signal = this.#signal(options);
    return runAction(this.adapter, this.event, this.#observe, 'openForm', signal, (actions) =>
      actions.openForm(this.event, form, { signal }),
    );
  }

  dm(user: string, message: Message, options?: Signalled): Promise<PostedMessage> {
    const signal = this.#signal(options);
    return runAction(this.adapter, this.event, this.#observe, 'dm', signal, (actions) =>
      actions.dm(this.event, user, message, { signal }),
    );
  }

  /** Hands a deferred form submit's `formErrors(...)` to the adapter (observed like an action). */
  showFormErrors(errors: FormErrors): Promise<void> {
    const signal = this.#cancellation.signal;
    return runAction(this.adapter, this.event, this.#observe, 'showFormErrors', signal, (actions) =>
      actions.showFormErrors(this.event, errors, { signal }),
    );
  }
}
