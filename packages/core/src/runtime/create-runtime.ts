import { setMaxListeners } from 'node:events';
import type { Adapter, RuntimeHandle } from '../adapter/adapter.js';
import { assertAdapter } from '../adapter/assert-adapter.js';
import { AdmissionController } from '../admission/admission-controller.js';
import { ThreadHost } from '../conversation/thread-host.js';
import { DeliveryRunner } from '../dispatch/delivery-runner.js';
import type { DispatchOptions, DispatchResult } from '../dispatch/dispatch-result.js';
import { type PreludeHost, runPrelude } from '../dispatch/prelude.js';
import { ShutdownError } from '../errors.js';
import type { RtEvent } from '../event/event.js';
import { LockManager } from '../locks/lock-manager.js';
import { observersWithLogger } from '../observe/default-logger.js';
import { instrumentHandlers } from '../observe/handler-instrumentation.js';
import type { DispatchMode, Observation } from '../observe/observation.js';
import { ObserverSet } from '../observe/observers.js';
import type { Handler } from '../routing/handler.js';
import type { Pattern, Route } from '../routing/route.js';
import { Router } from '../routing/router.js';
import { createStrategy } from '../strategies/create-strategy.js';
import type { ConcurrencyStrategy } from '../strategies/strategy.js';
import { Cancellation } from '../util/cancellation.js';
import { TimerWheel } from '../util/timer-wheel.js';
import type { CreateRuntimeOptions, ResolvedRuntimeOptions } from './options.js';
import { OutcomeLedger } from './outcome-ledger.js';
import type { Runtime, RuntimeStats, ShutdownOptions } from './runtime-types.js';
import { runShutdown, validateShutdownBudgets } from './shutdown.js';
import { resolveRuntimeOptions } from './validate-options.js';

/**
 * Creates a runtime. Options are validated at once: a bad option throws `TypeError` or
 * `RangeError` naming it.
 */
export function createRuntime(options: CreateRuntimeOptions): Runtime {
  return new RtRuntime(resolveRuntimeOptions(options));
}

/**
 * The runtime: registration (adapters, routes), counters, and the wiring of the pieces each contract
 * concept lives in: the prelude (dispatch/prelude.ts), the runners (dispatch/delivery-runner.ts),
 * the strategies (strategies/), the outcome ledger (runtime/outcome-ledger.ts) and shutdown
 * (runtime/shutdown.ts).
 */
class RtRuntime implements Runtime {
  readonly options: ResolvedRuntimeOptions;
  readonly #router = new Router();
  readonly #adapters = new Map<string, Adapter>();
  readonly #admission: AdmissionController;
  readonly #observers: ObserverSet;
  readonly #strategy: ConcurrencyStrategy;
  readonly #locks: LockManager;
  readonly #ledger: OutcomeLedger;
  readonly #runner: DeliveryRunner;
  readonly #prelude: PreludeHost;
  readonly #threads: ThreadHost;
  /**
   * Aborts when shutdown starts: parked work leaves at once. A `Cancellation`, so the listener
   * each waiting delivery puts on it is a set entry, not `EventTarget` work; adapters' `start`
   * gets its real `AbortSignal`.
   */
  readonly #shutdownController = new Cancellation();
  /** Set synchronously the moment shutdown starts: admission is closed from then on. */
  #closed = false;
  /** Set right before `shutdown_finished`: strategies' and locks' late observations are dropped. */
  #finished = false;
  #received = 0;
  #accepted = 0;
  #started: Promise<void> | undefined;
  #shutdown: Promise<void> | undefined;

  constructor(options: ResolvedRuntimeOptions) {
    this.options = options;
    this.#admission = new AdmissionController(options.maxDetached, options.maxDetachedPerTenant);
    this.#observers = new ObserverSet(
      observersWithLogger(options.observers, options.logger),
      options.onObserverError,
    );
    setMaxListeners(0, this.#shutdownController.signal);
    const emit = (observation: Observation) => this.#emit(observation);
    const observeWork = (observation: Observation) => {
      if (!this.#finished) this.#emit(observation);
    };
    const observing = (type: Observation['type']) => this.#observers.wants(type);
    this.#threads = new ThreadHost(options.state, emit);
    this.#ledger = new OutcomeLedger(emit, (outcome) => this.#observers.wantsFinished(outcome));
    // One armed `setTimeout` for every detach timeout, lease renewal and lease expiry, sleeping at
    // most a renewal interval: a lease's timers then fire from the one its detach timeout armed.
    const wheel = new TimerWheel({ maxSleepMs: options.lockTtlMs / 3 });
    this.#runner = new DeliveryRunner(
      this.#ledger,
      options.detachTimeoutMs,
      this.#shutdownController,
      {
        timeHandlers: options.observers.length > 0,
        callHandler: instrumentHandlers(options.observers, (error) =>
          this.#observers.failed(error),
        ),
        threads: this.#threads,
        observeActions: this.#observers.active ? observeWork : undefined,
      },
      wheel,
    );
    this.#locks = new LockManager(options.state, options.lockTtlMs, observeWork, wheel);
    this.#strategy = createStrategy({
      locks: this.#locks,
      config: options.concurrency,
      shutdownSignal: this.#shutdownController,
      invoke: this.#runner.invoke,
      start: this.#runner.start,
      observe: observeWork,
    });
    this.#runner.use(this.#strategy);
    this.#prelude = {
      state: options.state,
      dedupeTtlMs: options.dedupeTtlMs,
      lockScope: options.lockScope,
      router: this.#router,
      threads: this.#threads,
      admission: this.#admission,
      ledger: this.#ledger,
      runner: this.#runner,
      adapter: (name) => this.#adapters.get(name),
      modeFor: (event, adapter) => this.#modeFor(event, adapter),
      closed: () => this.#closed,
      count: (what) => {
        if (what === 'received') this.#received += 1;
        else this.#accepted += 1;
      },
      emit,
      observing,
    };
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
    if (typeof route === 'object' && route?.kind === 'subscribed_message') {
      this.#threads.subscriptions(); // the State must offer Subscriptions: throws now otherwise
    }
    return this.#router.add(route, handler);
  }

  onSubscribedMessage(handler: Handler): () => void {
    return this.on({ kind: 'subscribed_message' }, handler);
  }

  onMention(handler: Handler): () => void {
    return this.on({ kind: 'mention' }, handler);
  }

  onMessage(textOrHandler: Pattern | Handler, handler?: Handler): () => void {
    if (typeof textOrHandler === 'function') return this.on({ kind: 'message' }, textOrHandler);
    if (!handler) throw new TypeError('onMessage(text, handler) needs a handler');
    return this.on({ kind: 'message', text: textOrHandler }, handler);
  }

  onDirectMessage(handler: Handler): () => void {
    return this.on({ kind: 'message', direct: true }, handler);
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
    if (typeof formIdOrHandler === 'function') {
      return this.on({ kind: 'form_close' }, formIdOrHandler);
    }
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
      detachedHighWater: this.#admission.highWater,
      perTenantInFlight: this.#admission.perTenant(),
      syncInFlight: this.#runner.syncInFlight,
      parked: this.#strategy.parked,
      received: this.#received,
      accepted: this.#accepted,
      outcomes: this.#ledger.counts(),
      observerFailures: this.#observers.failures,
      shuttingDown: this.#closed,
    };
  }

  dispatch(event: RtEvent, options: DispatchOptions = {}): Promise<DispatchResult> {
    return runPrelude(this.#prelude, event, options);
  }

  shutdown(options: ShutdownOptions = {}): Promise<void> {
    if (this.#shutdown) return this.#shutdown;
    const graceMs = options.graceMs ?? this.options.shutdownGraceMs;
    const abandonMs = options.abandonAfterMs ?? this.options.shutdownAbandonMs;
    try {
      validateShutdownBudgets(graceMs, abandonMs);
    } catch (error) {
      return Promise.reject(error);
    }
    // (1) admission closes before anything else can run.
    this.#closed = true;
    this.#shutdown = runShutdown(
      {
        adapters: [...this.#adapters.values()],
        runner: this.#runner,
        ledger: this.#ledger,
        locks: this.#locks,
        controller: this.#shutdownController,
        emit: (observation) => this.#emit(observation),
        finished: () => {
          this.#finished = true;
        },
      },
      graceMs,
      abandonMs,
    );
    return this.#shutdown;
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
