import type { Delivery } from '../dispatch/delivery.js';
import { type InvokeExtras, outcomeForAbort } from '../dispatch/invoke-handlers.js';
import { eventRef, type RtEvent } from '../event/event.js';
import { acquireWhenFreeInto, type LockSink } from '../locks/acquire-when-free.js';
import type { HeldLock, ReleaseSink } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import {
  type AbortHandler,
  Cancellation,
  type CancelSource,
  type Watch,
} from '../util/cancellation.js';
import { TimerWheel, WheelTimer } from '../util/timer-wheel.js';
import { LeasedRun } from './leased-run.js';
import type { ResultSink, StrategyHost } from './strategy.js';

/**
 * The delivery currently parked for a scope, with what it superseded: one record that is its own
 * abort handler (watching its delivery's life and the runtime's shutdown), no closures.
 */
class Survivor implements AbortHandler {
  #own: Watch | undefined;
  #shutdown: Watch | undefined;

  constructor(
    /** Its scope's parking place (which knows its engine and key). */
    readonly entry: Entry,
    readonly delivery: Delivery,
    /** Events it superseded on this instance, oldest first. */
    readonly skipped: readonly RtEvent[],
    /** Where its result goes (it is settled exactly once: run, superseded or left). */
    readonly sink: ResultSink,
  ) {}

  /** Starts watching its delivery's life and `shutdown`. */
  watch(shutdown: CancelSource): void {
    this.#own = Cancellation.watch(this.delivery.controller, this);
    this.#shutdown = Cancellation.watch(shutdown, this);
  }

  /** Removes the survivor's abort listeners. */
  detach(): void {
    if (this.#own !== undefined) Cancellation.unwatch(this.#own, this);
    if (this.#shutdown !== undefined) Cancellation.unwatch(this.#shutdown, this);
    this.#own = undefined;
    this.#shutdown = undefined;
  }

  /** Its delivery's life or the shutdown aborted while it was parked. */
  handleAbort(reason: unknown): void {
    this.entry.engine.left(this, reason);
  }
}

/**
 * A survivor's running handlers (a `LeasedRun`: its lease is released, then its result settled).
 * It is also the run's extras (the lease and the skipped events): no object of its own for them.
 */
class SurvivorRun extends LeasedRun implements InvokeExtras {
  constructor(
    lock: HeldLock,
    readonly skipped: readonly RtEvent[],
    sink: ResultSink,
  ) {
    super(sink, lock);
  }
}

const RESOLVED = Promise.resolve();

/** What a survivor that superseded nothing carries (frozen, shared: `ctx.skipped` is readonly). */
const NO_SKIPPED: readonly RtEvent[] = Object.freeze([]);

/** A debounce entry's quiet window ended: it takes its next step (one function for all). */
function quietOver(entry: Entry): void {
  entry.engine.next(entry);
}

/**
 * One scope's parking place, the sink of the lock acquisition it waits on, and (debounce) the
 * timer of its quiet window on the engine's wheel: one record. Exists while a survivor waits;
 * deleted when it runs or leaves.
 */
class Entry extends WheelTimer<Entry> implements LockSink, ReleaseSink {
  survivor: Survivor | undefined = undefined;
  /** Epoch ms before which the survivor must not start (debounce window; 0 for queue). */
  quietUntil = 0;
  /** Aborts when the entry has no survivor left, ending its wait. */
  readonly controller = new Cancellation();

  constructor(
    readonly engine: CoalescingEngine,
    readonly key: string,
  ) {
    super(quietOver);
  }

  /**
   * Its lock was granted: handed on one microtask later, as when the scope's wait was an async
   * function awaiting the acquisition, so a delivery dispatched right after this one still finds
   * its handler not started and supersedes it.
   */
  locked(lock: HeldLock | null): void {
    RESOLVED.then(() => this.engine.locked(this, lock!));
  }

  /** The entry emptied while it waited (every delivery left): nothing to run, nothing held. */
  gaveUp(): void {}

  /** The lock it let go of to wait out a newer quiet window was released: its next step. */
  released(): void {
    this.engine.next(this);
  }
}

/**
 * The engine behind `queue` and `debounce` (docs/contract.md §5). Per scope at most one delivery waits whose
 * handler has not started (parked, or taking the lock): a newer delivery supersedes it (most
 * recent wins by local dispatch order), the superseded one
 * resolves `superseded` at once, and the survivor inherits its `skipped` events. The survivor
 * waits out the quiet window (debounce), takes the Thread Lock when it frees (on this instance or
 * another), and runs with `ctx.skipped`. A parked survivor leaves with `timed-out` at its detach
 * timeout and with `shutdown` when shutdown starts. Supersession is per instance.
 */
export class CoalescingEngine {
  readonly #host: StrategyHost;
  readonly #quietMs: number;
  readonly #entries = new Map<string, Entry>();
  /**
   * Where debounce's quiet windows wait (one armed `setTimeout` for all); not unref'd: a parked
   * survivor is accepted work and keeps the process alive.
   */
  readonly #windows = new TimerWheel({ keepAlive: true });

  /** `quietMs` 0 is queue; above 0 is debounce's window. */
  constructor(host: StrategyHost, quietMs: number) {
    this.#host = host;
    this.#quietMs = quietMs;
  }

  /** Parked deliveries now (one per scope at most). */
  get parked(): number {
    return this.#entries.size;
  }

  run(delivery: Delivery): Promise<HandledResult> {
    return new Promise<HandledResult>((handled) => this.start(delivery, { handled }));
  }

  /** `run`, its result handed to `sink` (see `ConcurrencyStrategy.start`). */
  start(delivery: Delivery, sink: ResultSink): void {
    const key = delivery.scopeKey;
    const existing = this.#entries.get(key);
    if (existing?.survivor) {
      this.#supersede(existing, delivery, sink);
      return;
    }
    const entry = new Entry(this, key);
    this.#entries.set(key, entry);
    if (!this.#park(entry, delivery, NO_SKIPPED, sink)) return;
    this.next(entry);
  }

  /** Makes `delivery` the survivor of `entry`; false when it left at once (already aborted). */
  #park(entry: Entry, delivery: Delivery, skipped: readonly RtEvent[], sink: ResultSink): boolean {
    entry.quietUntil = this.#quietMs > 0 ? Date.now() + this.#quietMs : 0;
    const shutdown = this.#host.shutdownSignal;
    const ended = delivery.controller.aborted
      ? delivery.controller
      : shutdown.aborted
        ? shutdown
        : undefined;
    if (ended !== undefined) {
      const reason: unknown = ended.reason;
      sink.handled({ outcome: outcomeForAbort(reason), error: reason });
      this.#empty(entry);
      return false;
    }
    // Two watches (its own life, the runtime's shutdown), no cancellation in between.
    const survivor = new Survivor(entry, delivery, skipped, sink);
    entry.survivor = survivor;
    survivor.watch(shutdown);
    return true;
  }

  /** @internal A parked survivor's delivery or the runtime aborted: it leaves with that outcome. */
  left(survivor: Survivor, reason: unknown): void {
    const { entry } = survivor;
    if (entry.survivor !== survivor) return;
    survivor.detach();
    entry.survivor = undefined;
    survivor.sink.handled({ outcome: outcomeForAbort(reason), error: reason });
    this.#empty(entry);
  }

  #supersede(entry: Entry, delivery: Delivery, sink: ResultSink): void {
    const old = entry.survivor!;
    old.detach();
    entry.survivor = undefined;
    this.#host.observe({
      type: 'superseded',
      at: Date.now(),
      event: eventRef(old.delivery.event),
      by: eventRef(delivery.event),
      scope: entry.key,
    });
    old.sink.handled({ outcome: 'superseded' });
    if (!this.#park(entry, delivery, [...old.skipped, old.delivery.event], sink)) return;
  }

  /** Removes an entry whose survivor left, ending its loop. */
  #empty(entry: Entry): void {
    if (entry.survivor) return;
    if (this.#entries.get(entry.key) === entry) this.#entries.delete(entry.key);
    this.#windows.cancel(entry);
    entry.controller.abort();
  }

  /**
   * @internal The entry's next step, continued by callbacks (no frame suspended while it waits):
   * debounce waits until its quiet window (restarted by supersession) has passed, on the
   * engine's wheel, then the entry takes its scope's lock when it frees (`locked`). Once the
   * entry emptied its window is cancelled and its controller aborted: every wait ends and
   * nothing runs.
   */
  next(entry: Entry): void {
    if (entry.controller.aborted) return; // emptied meanwhile (during a lock release)
    const left = this.#quietLeft(entry);
    if (left > 0) {
      // The lane of the full window: deadlines of one window length stay in order.
      this.#windows.schedule(entry, left, this.#quietMs);
      return;
    }
    acquireWhenFreeInto(
      this.#host.locks,
      entry.key,
      {
        initialMs: this.#host.config.lockPollInitialMs,
        maxMs: this.#host.config.lockPollMaxMs,
        signal: entry.controller,
        observe: this.#host.observe,
      },
      entry,
    );
  }

  /** @internal `entry` holds its scope's lock: its survivor runs, unless it must wait again. */
  locked(entry: Entry, lock: HeldLock): void {
    if (entry.quietUntil > Date.now()) {
      // A newer delivery arrived while we waited for the lock: its quiet window runs without
      // the lock held, so other instances are not blocked by a scope that is only waiting.
      lock.releaseInto(entry);
      return;
    }
    const survivor = entry.survivor;
    if (!survivor) {
      void lock.release();
      return;
    }
    // From here the survivor runs: no later delivery can supersede it. The entry lets go of
    // it too: V8 keeps a map's replaced tables as they were, so an entry that a dead table still
    // points at must not hold its delivery's records through the run (docs/benchmarks.md).
    this.#entries.delete(entry.key);
    entry.survivor = undefined;
    survivor.detach();
    // Continued by its sink: the sink keeps only the lease and the survivor's sink, so the
    // survivor, its entry and the entry's cancellation are garbage while the handler runs.
    const run = new SurvivorRun(lock, survivor.skipped, survivor.sink);
    this.#host.start(survivor.delivery, run, run);
  }

  /** Ms left of the entry's quiet window (debounce); 0 for queue, which has none. */
  #quietLeft(entry: Entry): number {
    return this.#quietMs > 0 ? entry.quietUntil - Date.now() : 0;
  }
}
