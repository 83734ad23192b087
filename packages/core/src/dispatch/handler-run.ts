import { runAction } from '../conversation/context-actions.js';
import { type FormErrors, isFormErrors } from '../conversation/form.js';
import type { HandledResult } from '../outcomes/outcome.js';
import { Cancellation, type CancelSource, type Watch } from '../util/cancellation.js';
import type { Delivery } from './delivery.js';
import {
  type InvokeExtras,
  outcomeForAbort,
  type RunHooks,
  type RunSink,
} from './invoke-handlers.js';
import { RunContext, runParts } from './run-context.js';

/** What a run waits for when a promise is pending: a handler's value, or a form's errors shown. */
const HANDLER_VALUE = 1;
const FORM_ERRORS_SHOWN = 2;

/**
 * A handler run as one record: the context its handlers see (`RunContext`), what it follows, the
 * index of the next handler, the first value and error, its sink, and the two callbacks a pending
 * promise continues it through (built on the first promise, shared by every later one).
 */
export class HandlerRun extends RunContext {
  readonly #hooks: RunHooks;
  readonly #sink: RunSink;
  /** What the run follows: its delivery's and its lease's cancellation (watched, no closure)... */
  #delivered: Watch | undefined;
  #leased: Watch | undefined;
  /** ... or, when a strategy adds signals of its own, the detacher of all of them. */
  #detach: (() => void) | undefined;
  #next = 0;
  #started = false;
  #failed = false;
  #response: unknown;
  #error: unknown;
  #waitingFor = 0;
  #onValue: ((value: unknown) => void) | undefined;
  #onThrown: ((thrown: unknown) => void) | undefined;

  constructor(delivery: Delivery, extras: InvokeExtras, hooks: RunHooks, sink: RunSink) {
    const controller = new Cancellation();
    super(delivery, controller, extras, hooks.threads, hooks.observeActions);
    this.#hooks = hooks;
    this.#sink = sink;
  }

  /** What the run shares with its context (kept there once, read through `runParts`). */
  get #delivery(): Delivery {
    return runParts.delivery(this);
  }

  get #extras(): InvokeExtras {
    return runParts.extras(this);
  }

  get #controller(): Cancellation {
    return runParts.cancellation(this);
  }

  /**
   * Builds the run and starts it. Static, and the steps private: the record is the handlers'
   * context, so nothing of the run's machinery is callable through `ctx`.
   */
  static run(delivery: Delivery, extras: InvokeExtras, hooks: RunHooks, sink: RunSink): void {
    new HandlerRun(delivery, extras, hooks, sink).#start();
  }

  /** Follows the delivery's (and the lease's, and the strategy's) cancellation, then runs. */
  #start(): void {
    const extras = this.#extras;
    const controller = this.#controller;
    try {
      if (extras.signals !== undefined) {
        this.#detach = controller.follow([
          this.#delivery.controller,
          ...extras.signals,
          extras.lock?.cancellation,
        ]);
      } else {
        this.#delivered = this.#follow(this.#delivery.controller);
        this.#leased = this.#follow(extras.lock?.cancellation);
      }
    } catch (error) {
      this.#abandon(error);
      return;
    }
    this.#continue();
  }

  /** Aborts the run's cancellation when `source` aborts (at once when it has). */
  #follow(source: CancelSource | undefined): Watch | undefined {
    if (source === undefined || this.#controller.aborted) return undefined;
    if (!source.aborted) return Cancellation.watch(source, this.#controller);
    this.#controller.abort(source.reason);
    return undefined;
  }

  /** Calls handlers from the next one on until one returns a promise, or none is left to call. */
  #continue(): void {
    const { handlers } = this.#delivery;
    const { callHandler } = this.#hooks;
    while (this.#next < handlers.length && !this.#controller.aborted) {
      const handler = handlers[this.#next]!;
      this.#next += 1;
      if (!this.#started) {
        this.#started = true;
        try {
          this.#hooks.started(this.#delivery, this.#extras);
        } catch (error) {
          this.#abandon(error);
          return;
        }
      }
      try {
        const value = callHandler ? callHandler(handler, this) : handler(this);
        if (isThenable(value)) {
          this.#wait(value, HANDLER_VALUE);
          return;
        }
        if (this.#took(value)) return;
      } catch (thrown) {
        this.#fail(thrown);
      }
    }
    this.#end();
  }

  /**
   * Keeps a handler's value: the first one given is the response; a deferred handler's
   * `formErrors(...)` is handed to the adapter instead (true: the run waits for it).
   */
  #took(value: unknown): boolean {
    if (this.#delivery.mode === 'deferred' && isFormErrors(value)) {
      // Nobody reads a deferred handler's value: the adapter shows the errors itself.
      this.#wait(this.#showFormErrors(value), FORM_ERRORS_SHOWN);
      return true;
    }
    if (this.#response === undefined && value !== undefined) this.#response = value;
    return false;
  }

  /** Hands a deferred form submit's `formErrors(...)` to the adapter (observed like an action). */
  #showFormErrors(errors: FormErrors): Promise<void> {
    const signal = this.#controller.signal;
    const { event } = this.#delivery;
    return runAction(
      this.adapter,
      event,
      this.#hooks.observeActions,
      'showFormErrors',
      signal,
      (actions) => actions.showFormErrors(event, errors, { signal }),
    );
  }

  #fail(thrown: unknown): void {
    if (!this.#failed) {
      this.#failed = true;
      this.#error = thrown;
    }
  }

  /** Continues the run once `pending` settles, as `await` would (a thenable is adopted first). */
  #wait(pending: PromiseLike<unknown>, waitingFor: number): void {
    this.#waitingFor = waitingFor;
    // Bound, not arrows: two small function objects and no closure context for them to share.
    this.#onValue ??= this.#settled.bind(this);
    this.#onThrown ??= this.#threw.bind(this);
    Promise.resolve(pending).then(this.#onValue, this.#onThrown);
  }

  #settled(value: unknown): void {
    if (this.#waitingFor === HANDLER_VALUE) {
      try {
        if (this.#took(value)) return;
      } catch (thrown) {
        this.#fail(thrown);
      }
    }
    this.#continue();
  }

  #threw(thrown: unknown): void {
    this.#fail(thrown);
    this.#continue();
  }

  /** No handler is left to call (or the signal aborted): the run ends with its result. */
  #end(): void {
    let result: HandledResult;
    try {
      this.#close();
      const controller = this.#controller;
      if (controller.aborted) {
        const reason: unknown = controller.reason;
        result = { outcome: outcomeForAbort(reason), error: reason };
      } else if (this.#failed) result = { outcome: 'failed', error: this.#error };
      else result = { outcome: 'completed', response: this.#response };
      result = this.#hooks.finished(this.#delivery, this.#extras, result);
    } catch (error) {
      this.#sink.threw(error);
      return;
    }
    this.#sink.handled(result);
  }

  /** A hook threw: the run is closed as on every path, and rejects with what was thrown last. */
  #abandon(error: unknown): void {
    let last = error;
    try {
      this.#close();
    } catch (thrown) {
      last = thrown;
    }
    this.#sink.threw(last);
  }

  /** Stops following the cancellations, then tells the hooks the run is over. */
  #close(): void {
    try {
      const controller = this.#controller;
      if (this.#delivered !== undefined) Cancellation.unwatch(this.#delivered, controller);
      if (this.#leased !== undefined) Cancellation.unwatch(this.#leased, controller);
      this.#detach?.();
    } finally {
      this.#hooks.ended(this.#delivery, this.#extras);
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
