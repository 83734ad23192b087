import type { Adapter, PostedMessage } from '../adapter/adapter.js';
import type { ContextActions, EphemeralTarget, PostTarget } from '../conversation/actions.js';
import { type ActionObserver, legacyReply, runAction } from '../conversation/context-actions.js';
import type { Message } from '../conversation/message.js';
import { createThreadContext, type ThreadContext } from '../conversation/thread-context.js';
import type { ThreadHost } from '../conversation/thread-host.js';
import type { RtEvent } from '../event/event.js';
import type { HandlerContext, HeldLockInfo } from '../routing/handler.js';
import type { Cancellation } from '../util/cancellation.js';
import { streamFromContext } from './context-stream.js';
import type { Delivery } from './delivery.js';
import type { InvokeExtras } from './invoke-handlers.js';

/** Shared by every context without skipped events (frozen: handlers cannot change it). */
const NO_EVENTS: readonly RtEvent[] = Object.freeze([]);

/**
 * What a run record reads of its context's private state (a subclass cannot read its base's
 * private fields): set once, by `RunContext`'s static block; internal to the runtime.
 */
export let runParts: {
  readonly delivery: (ctx: RunContext) => Delivery;
  readonly extras: (ctx: RunContext) => InvokeExtras;
  readonly cancellation: (ctx: RunContext) => Cancellation;
};

/** The options of an action that may carry its own signal. */
type Signalled = { readonly signal?: AbortSignal } | undefined;

/**
 * One handler run's context, as its handlers see it. `signal` is a prototype getter over the
 * run's lazy cancellation (no closure or accessor per delivery); the context's data (`event`,
 * `lock`, `batch`, ...) and `reply` stay own properties, so a handler can spread or destructure
 * them (`reply` a bound method: no closure context per run). `invokeHandlers`' run record extends
 * it: one object per run, which reads the delivery, extras and cancellation it shares with its
 * context through `runParts`.
 */
export class RunContext implements HandlerContext {
  readonly event: RtEvent;
  readonly mode: Delivery['mode'];
  readonly lock: HeldLockInfo | undefined;
  readonly skipped: readonly RtEvent[];
  readonly batch: readonly RtEvent[];
  readonly adapter: Adapter;
  readonly reply: HandlerContext['reply'];
  readonly #delivery: Delivery;
  readonly #extras: InvokeExtras;
  readonly #cancellation: Cancellation;
  readonly #threads: ThreadHost | undefined;
  #thread: ThreadContext | undefined;
  readonly #observe: ActionObserver;

  static {
    runParts = {
      delivery: (ctx) => ctx.#delivery,
      extras: (ctx) => ctx.#extras,
      cancellation: (ctx) => ctx.#cancellation,
    };
  }

  constructor(
    delivery: Delivery,
    cancellation: Cancellation,
    extras: InvokeExtras,
    threads: ThreadHost | undefined,
    observe: ActionObserver,
  ) {
    const { event } = delivery;
    this.event = event;
    this.mode = delivery.mode;
    this.lock = extras.lock ? { key: extras.lock.key, fence: extras.lock.fence } : undefined;
    this.skipped = extras.skipped ?? NO_EVENTS;
    this.batch = extras.batch ?? [event];
    this.adapter = delivery.adapter;
    this.#delivery = delivery;
    this.#extras = extras;
    this.#cancellation = cancellation;
    this.#threads = threads;
    this.#observe = observe;
    // Bound, not a closure: one small function object per run, no closure context.
    this.reply = this.#reply.bind(this);
  }

  #reply(message: Message, options?: Signalled): Promise<PostedMessage> {
    const signal = this.#signal(options);
    const { adapter, event } = this;
    return runAction(
      adapter,
      event,
      this.#observe,
      'reply',
      signal,
      (actions) => actions.reply(event, message, { signal }),
      () => legacyReply(adapter, event, message, signal),
    );
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
}
