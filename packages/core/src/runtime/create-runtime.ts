import { setMaxListeners } from 'node:events';
import type { Adapter, RuntimeHandle } from '../adapter/adapter.js';
import { assertAdapter } from '../adapter/assert-adapter.js';
import { AdmissionController } from '../admission/admission-controller.js';
import type { Delivery } from '../dispatch/delivery.js';
import type { DispatchOptions, DispatchResult } from '../dispatch/dispatch-result.js';
import { invokeHandlers } from '../dispatch/invoke-handlers.js';
import {
  AdmissionRejectedError,
  type AdmissionRejectionReason,
  DetachTimeoutError,
  InvalidEventError,
  PreludeError,
  ShutdownError,
} from '../errors.js';
import { eventRef, type RtEvent } from '../event/event.js';
import { dedupeKeyOf, validateEvent } from '../event/validate-event.js';
import { LockManager } from '../locks/lock-manager.js';
import { scopeKeyOf } from '../locks/lock-scope.js';
import type { DispatchMode, Observation } from '../observe/observation.js';
import { ObserverSet } from '../observe/observers.js';
import type { FinishedDelivery, HandledResult, Outcome } from '../outcomes/outcome.js';
import type { Handler } from '../routing/handler.js';
import type { Pattern, Route } from '../routing/route.js';
import { Router } from '../routing/router.js';
import { createStrategy } from '../strategies/create-strategy.js';
import type { ConcurrencyStrategy } from '../strategies/strategy.js';
import { forwardAbort } from '../util/abort.js';
import type { CreateRuntimeOptions, ResolvedRuntimeOptions } from './options.js';
import { OutcomeLedger } from './outcome-counter.js';
import type { Runtime, RuntimeStats, ShutdownOptions } from './runtime-types.js';
import { settleAdapters } from './settle-adapters.js';
import { resolveRuntimeOptions } from './validate-options.js';

/**
 * Creates a runtime. Options are validated at once: a bad option throws `TypeError` or
 * `RangeError` naming it.
 */
export function createRuntime(options: CreateRuntimeOptions): Runtime {
  return new RtRuntime(resolveRuntimeOptions(options));
}

class RtRuntime implements Runtime {
  readonly options: ResolvedRuntimeOptions;
  readonly #router = new Router();
  readonly #adapters = new Map<string, Adapter>();
  readonly #admission: AdmissionController;
  readonly #observers: ObserverSet;
  readonly #strategy: ConcurrencyStrategy;
  readonly #ledger = new OutcomeLedger();
  /** Aborts when shutdown starts: parked work leaves at once. */
  readonly #shutdownController = new AbortController();
  /** Deliveries whose handlers may be running: aborted at the grace deadline. */
  readonly #live = new Set<Delivery>();
  /** Deliveries given up on at shutdown: their outcome is recorded, their late end ignored. */
  readonly #abandoned = new WeakSet<Delivery>();
  /** Set synchronously the moment shutdown starts: admission is closed from then on. */
  #closed = false;
  #graceOver = false;
  #received = 0;
  #accepted = 0;
  #syncInFlight = 0;
  #started: Promise<void> | undefined;
  #shutdown: Promise<void> | undefined;

  constructor(options: ResolvedRuntimeOptions) {
    this.options = options;
    this.#admission = new AdmissionController(options.maxDetached, options.maxDetachedPerTenant);
    this.#observers = new ObserverSet(options.observers, options.onObserverError);
    setMaxListeners(0, this.#shutdownController.signal);
    const observe = (observation: Observation) => this.#observers.emit(observation);
    this.#strategy = createStrategy({
      locks: new LockManager(options.state, options.lockTtlMs, observe),
      config: options.concurrency,
      shutdownSignal: this.#shutdownController.signal,
      invoke: invokeHandlers,
      observe,
    });
    for (const adapter of options.adapters) this.use(adapter);
  }

  use(adapter: Adapter): this {
    assertAdapter(adapter);
    if (this.#adapters.has(adapter.name)) {
      throw new TypeError(`an adapter named "${adapter.name}" is already registered`);
    }
    if (this.#started || this.#closed) {
      throw new TypeError('register adapters before start() and shutdown()');
    }
    this.#adapters.set(adapter.name, adapter);
    adapter.attach(this.#handle());
    return this;
  }

  adapter(name: string): Adapter | undefined {
    return this.#adapters.get(name);
  }

  on(route: Route, handler: Handler): () => void {
    return this.#router.add(route, handler);
  }

  onMention(handler: Handler): () => void {
    return this.on({ kind: 'mention' }, handler);
  }

  onMessage(textOrHandler: Pattern | Handler, handler?: Handler): () => void {
    if (typeof textOrHandler === 'function') return this.on({ kind: 'message' }, textOrHandler);
    if (!handler) throw new TypeError('onMessage(text, handler) needs a handler');
    return this.on({ kind: 'message', text: textOrHandler }, handler);
  }

  onCommand(name: string, handler: Handler): () => void {
    return this.on({ kind: 'command', name }, handler);
  }

  onAction(actionId: Pattern, handler: Handler): () => void {
    return this.on({ kind: 'action', actionId }, handler);
  }

  onFormSubmit(formId: Pattern, handler: Handler): () => void {
    return this.on({ kind: 'form_submit', formId }, handler);
  }

  onFormClose(formIdOrHandler: Pattern | Handler, handler?: Handler): () => void {
    if (typeof formIdOrHandler === 'function')
      return this.on({ kind: 'form_close' }, formIdOrHandler);
    if (!handler) throw new TypeError('onFormClose(formId, handler) needs a handler');
    return this.on({ kind: 'form_close', formId: formIdOrHandler }, handler);
  }

  onShortcut(shortcutId: Pattern, handler: Handler): () => void {
    return this.on({ kind: 'shortcut', shortcutId }, handler);
  }

  onSuggestion(actionId: Pattern, handler: Handler): () => void {
    return this.on({ kind: 'suggestion', actionId }, handler);
  }

  onReaction(nameOrHandler: string | Handler, handler?: Handler): () => void {
    if (typeof nameOrHandler === 'function') return this.on({ kind: 'reaction' }, nameOrHandler);
    if (!handler) throw new TypeError('onReaction(name, handler) needs a handler');
    return this.on({ kind: 'reaction', name: nameOrHandler }, handler);
  }

  onEvent(type: string, handler: Handler): () => void {
    return this.on({ kind: 'raw', type }, handler);
  }

  start(): Promise<void> {
    if (this.#closed) return Promise.reject(new ShutdownError('runtime is shut down'));
    this.#started ??= Promise.all(
      [...this.#adapters.values()].map((adapter) =>
        adapter.start?.(this.#shutdownController.signal),
      ),
    ).then(
      () => undefined,
      (error: unknown) => {
        this.#started = undefined;
        throw error;
      },
    );
    return this.#started;
  }

  stats(): RuntimeStats {
    return {
      detachedInFlight: this.#admission.inFlight,
      perTenantInFlight: this.#admission.perTenant(),
      syncInFlight: this.#syncInFlight,
      parked: this.#strategy.parked,
      received: this.#received,
      accepted: this.#accepted,
      outcomes: this.#ledger.counts(),
      observerFailures: this.#observers.failures,
      shuttingDown: this.#closed,
    };
  }

  async dispatch(event: RtEvent, options: DispatchOptions = {}): Promise<DispatchResult> {
    validateEvent(event);
    const adapter = this.#adapters.get(event.adapter);
    if (!adapter) throw new InvalidEventError(`no adapter named "${event.adapter}" is registered`);
    this.#received += 1;
    const mode = this.#modeFor(event, adapter);
    if (this.#closed) this.#reject(event, mode, 'shutdown');
    const handlers = this.#router.match(event);
    if (handlers.length === 0) {
      this.#record(event, mode, { outcome: 'unrouted' }, event.receivedAt, false);
      return { status: 'unrouted' };
    }
    // Computed before anything is reserved or marked: a failing scope function refuses the event.
    const scopeKey = this.#scopeKeyOf(event, adapter, mode);
    let slot: Delivery['slot'];
    if (mode === 'deferred') {
      const admitted = this.#admission.tryAcquire(event.adapter, event.tenant);
      if (typeof admitted === 'string') this.#reject(event, mode, admitted);
      slot = admitted;
    }
    this.#ledger.open();
    // An event the platform never redelivers may ask for no mark (`dedupeTtlMs: 0`).
    const ttlMs = event.dedupeTtlMs ?? this.options.dedupeTtlMs;
    let marked = true;
    try {
      if (ttlMs > 0) marked = await this.options.state.markEvent(dedupeKeyOf(event), ttlMs);
    } catch (error) {
      slot?.release();
      this.#emit({ type: 'prelude_error', at: Date.now(), event: eventRef(event), error });
      this.#record(event, mode, { outcome: 'prelude-error', error }, event.receivedAt, true);
      throw new PreludeError(`could not mark event ${event.id}: the State failed`, {
        cause: error,
      });
    }
    if (!marked) {
      slot?.release();
      this.#record(event, mode, { outcome: 'duplicate' }, event.receivedAt, true);
      return { status: 'duplicate' };
    }
    this.#accepted += 1;
    this.#emit({ type: 'dispatch_admitted', at: Date.now(), event: eventRef(event), mode });
    const delivery: Delivery = {
      event,
      handlers,
      adapter,
      mode,
      scopeKey,
      controller: new AbortController(),
      acceptedAt: Date.now(),
      slot,
    };
    if (mode === 'deferred') return { status: 'accepted', settled: this.#runDeferred(delivery) };
    const result = await this.#runSync(delivery, options.signal);
    return { status: 'completed', ...result };
  }

  shutdown(options: ShutdownOptions = {}): Promise<void> {
    if (this.#shutdown) return this.#shutdown;
    const graceMs = options.graceMs ?? this.options.shutdownGraceMs;
    const abandonMs = options.abandonAfterMs ?? this.options.shutdownAbandonMs;
    for (const [name, value] of [
      ['graceMs', graceMs],
      ['abandonAfterMs', abandonMs],
    ] as const) {
      if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
        return Promise.reject(
          new RangeError(`${name} must be a finite number >= 0, got ${String(value)}`),
        );
      }
    }
    // (1) admission closes before anything else can run.
    this.#closed = true;
    this.#shutdown = this.#runShutdown(graceMs, abandonMs);
    return this.#shutdown;
  }

  async #runShutdown(graceMs: number, abandonMs: number): Promise<void> {
    this.#emit({ type: 'shutdown_started', at: Date.now() });
    // (3) parked waiters and open batches leave now with outcome `shutdown`.
    this.#shutdownController.abort(new ShutdownError('runtime shutting down'));
    // (4) running handlers get `graceMs`, then their signal aborts.
    let abandonTimer: ReturnType<typeof setTimeout> | undefined;
    const graceTimer = setTimeout(() => {
      this.#graceOver = true;
      for (const delivery of this.#live) delivery.controller.abort(new ShutdownError());
      abandonTimer = setTimeout(() => this.#abandonLive(), abandonMs);
    }, graceMs);
    try {
      // (2) inbound connections stop after admission closed; late arrivals were rejected.
      const emit = (o: Observation) => this.#emit(o);
      await settleAdapters(this.#adapters.values(), 'stop', graceMs + abandonMs, emit);
      // (5) every admitted delivery reaches its terminal outcome; then adapters finish follow-ups.
      await this.#ledger.drained();
      await settleAdapters(this.#adapters.values(), 'drain', graceMs + abandonMs, emit);
    } finally {
      clearTimeout(graceTimer);
      clearTimeout(abandonTimer);
    }
    this.#emit({ type: 'shutdown_finished', at: Date.now() });
  }

  /**
   * Records `shutdown` for every handler that outlived grace and abandon time. Their slots stay
   * held until their promises settle (SPEC 4, invariant 1): `stats()` keeps showing them.
   */
  #abandonLive(): void {
    for (const delivery of [...this.#live]) {
      this.#live.delete(delivery);
      this.#abandoned.add(delivery);
      const error = new ShutdownError('handler ignored its abort signal and was abandoned');
      this.#record(
        delivery.event,
        delivery.mode,
        { outcome: 'shutdown', error },
        delivery.acceptedAt,
        true,
      );
    }
  }

  async #runDeferred(delivery: Delivery): Promise<FinishedDelivery> {
    const timeoutMs = this.options.detachTimeoutMs;
    const timer = setTimeout(
      () => delivery.controller.abort(new DetachTimeoutError(timeoutMs)),
      timeoutMs,
    );
    timer.unref?.();
    const result = await this.#runStrategy(delivery);
    clearTimeout(timer);
    delivery.slot?.release();
    if (this.#abandoned.has(delivery)) {
      return { ...result, outcome: 'shutdown', event: eventRef(delivery.event), durationMs: 0 };
    }
    return this.#record(delivery.event, delivery.mode, result, delivery.acceptedAt, true);
  }

  async #runSync(delivery: Delivery, signal: AbortSignal | undefined): Promise<HandledResult> {
    this.#syncInFlight += 1;
    const detach = signal ? forwardAbort(delivery.controller, [signal]) : () => {};
    try {
      const result = await this.#runStrategy(delivery);
      if (this.#abandoned.has(delivery)) return { ...result, outcome: 'shutdown' };
      this.#record(delivery.event, delivery.mode, result, delivery.acceptedAt, true);
      return result;
    } finally {
      detach();
      this.#syncInFlight -= 1;
    }
  }

  /** Runs the strategy with the delivery registered for the grace deadline. Never rejects. */
  async #runStrategy(delivery: Delivery): Promise<HandledResult> {
    this.#live.add(delivery);
    if (this.#graceOver) delivery.controller.abort(new ShutdownError());
    try {
      return await this.#strategy.run(delivery);
    } catch (error) {
      return { outcome: 'failed', error };
    } finally {
      this.#live.delete(delivery);
    }
  }

  #reject(event: RtEvent, mode: DispatchMode, reason: AdmissionRejectionReason): never {
    this.#emit({
      type: 'admission_rejected',
      at: Date.now(),
      event: eventRef(event),
      adapter: event.adapter,
      tenant: event.tenant,
      reason,
      mode,
    });
    this.#record(event, mode, { outcome: 'admission-rejected' }, event.receivedAt, false);
    throw new AdmissionRejectedError(reason, event.adapter, event.tenant);
  }

  #record(
    event: RtEvent,
    mode: DispatchMode,
    result: HandledResult,
    since: number,
    wasOpen: boolean,
  ): FinishedDelivery {
    const finished: FinishedDelivery = {
      ...result,
      event: eventRef(event),
      durationMs: Math.max(0, Date.now() - since),
    };
    this.#emit({
      type: 'dispatch_finished',
      at: Date.now(),
      event: finished.event,
      mode,
      outcome: result.outcome satisfies Outcome,
      durationMs: finished.durationMs,
      ...(result.error === undefined ? {} : { error: result.error }),
    });
    this.#ledger.record(result.outcome, wasOpen);
    return finished;
  }

  /** The delivery's scope key; a failing scope function is a `prelude-error`, nothing marked. */
  #scopeKeyOf(event: RtEvent, adapter: Adapter, mode: DispatchMode): string {
    try {
      return scopeKeyOf(event, this.options.lockScope ?? adapter.defaultLockScope ?? 'thread');
    } catch (cause) {
      const error = new InvalidEventError(`lock scope of event ${event.id} failed: ${cause}`, {
        cause,
      });
      this.#emit({ type: 'prelude_error', at: Date.now(), event: eventRef(event), error });
      this.#record(event, mode, { outcome: 'prelude-error', error }, event.receivedAt, false);
      throw error;
    }
  }

  #modeFor(event: RtEvent, adapter: Adapter): DispatchMode {
    const configured = this.options.dispatchModes[event.adapter];
    return (
      configured?.shapes?.[event.shape] ??
      adapter.dispatchModeFor?.(event) ??
      configured?.default ??
      this.options.dispatchMode
    );
  }

  #emit(observation: Observation): void {
    this.#observers.emit(observation);
  }

  #handle(): RuntimeHandle {
    const runtime = this;
    return {
      dispatch: (event, options) => runtime.dispatch(event, options),
      observe: (observation) => runtime.#emit(observation),
      modeFor: (event) => {
        const adapter = runtime.#adapters.get(event.adapter);
        return adapter ? runtime.#modeFor(event, adapter) : runtime.options.dispatchMode;
      },
      get shuttingDown() {
        return runtime.#closed;
      },
    };
  }
}
