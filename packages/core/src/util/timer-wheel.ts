/**
 * One shared timer for many deadlines: what the runtime arms instead of a `setTimeout` per
 * delivery (its detach timeout) and per lease (its renewal and local expiry, one node).
 *
 * Timers sit in lanes, one per nominal duration (every detach timeout shares one lane, every
 * renewal another), each a doubly linked list kept in deadline order. Deadlines of one duration
 * are scheduled in rising order, so inserting is O(1) in practice (a walk back from the tail
 * covers the rare out-of-order one) and cancelling is always O(1). The wheel keeps one
 * `setTimeout` armed for the earliest deadline among the lanes' heads, `unref`ed unless the wheel
 * was built with `keepAlive` (a wheel of accepted work's own waits, which must keep the process
 * alive while one is armed).
 *
 * Timing is exact, not bucketed: a timer fires once `Date.now()` reached its deadline, from the
 * one `setTimeout` that was armed for it, so fake timers (`vi.useFakeTimers()`) drive it like a
 * `setTimeout` of its own. Timers due at once fire in deadline order, ties in scheduling order.
 * The global `setTimeout` and `clearTimeout` are read when the wheel arms, never captured at load.
 * Deadlines are kept as ms since the wheel was built, not epoch ms: small integers V8 stores in
 * the timer itself, where an epoch-ms number would be a separate heap number per timer.
 */

/** What a timer calls when it comes due: a shared function, the target carries the state. */
export type TimerCallback<T> = (target: T) => void;

/** A timer of a `TimerWheel`: reusable, scheduled again after it fired or was cancelled. */
export class WheelTimer<T = unknown> {
  /** @internal When it comes due, in ms since its wheel was built (meaningful while scheduled). */
  deadline = 0;
  /** @internal Scheduling order, the tie-break between equal deadlines. */
  seq = 0;
  /** @internal */
  prev: WheelTimer<T> | undefined;
  /** @internal */
  next: WheelTimer<T> | undefined;
  /** @internal The lane it is in; `undefined` when not scheduled. */
  lane: Lane | undefined;

  /** What `callback` is called with: `target`, or the timer itself when none is given. */
  readonly target: T;

  /**
   * Without `target`, the timer is its own target: a record that extends `WheelTimer` carries
   * its timer inline (no second object).
   */
  constructor(
    readonly callback: TimerCallback<T>,
    target?: T,
  ) {
    this.target = target === undefined ? (this as unknown as T) : target;
  }

  /** True while scheduled (neither fired nor cancelled). */
  get scheduled(): boolean {
    return this.lane !== undefined;
  }
}

/** Wheel times below this (in magnitude) are int32, which V8 keeps inside the timer. */
const INT32_LIMIT = 2 ** 31;

/** One nominal duration's timers, in deadline order. */
class Lane {
  head: WheelTimer | undefined;
  tail: WheelTimer | undefined;
}

/** How a `TimerWheel` arms its `setTimeout`. */
export interface TimerWheelOptions {
  /** Keep the process alive while a timer is scheduled (default false: `unref`ed). */
  readonly keepAlive?: boolean;
  /**
   * The longest the armed `setTimeout` runs (default: unbounded). A wheel armed for a far deadline
   * wakes at most this long after arming, finds nothing due and arms again; in return, timers
   * scheduled within this span after the far one (a lease's renewal and expiry, after its
   * delivery's detach timeout) fire from the timeout already armed instead of re-arming it.
   * Timers still fire exactly at their deadlines.
   */
  readonly maxSleepMs?: number;
}

/** See the module comment. */
export class TimerWheel {
  readonly #keepAlive: boolean;
  readonly #maxSleepMs: number;
  /** `Date.now()` when built: deadlines count from it (see the module comment). */
  readonly #origin = Date.now();
  readonly #lanes = new Map<number, Lane>();
  #size = 0;
  #seq = 0;
  #handle: ReturnType<typeof setTimeout> | undefined;
  #clear: typeof clearTimeout | undefined;
  /** When the armed `setTimeout` fires (the earliest deadline, or sooner by `maxSleepMs`). */
  #armedFor = Number.POSITIVE_INFINITY;
  readonly #fire = (): void => this.#onTimeout();

  constructor(options: TimerWheelOptions = {}) {
    this.#keepAlive = options.keepAlive === true;
    const maxSleepMs = options.maxSleepMs ?? Number.POSITIVE_INFINITY;
    if (!(maxSleepMs > 0)) throw new RangeError('maxSleepMs must be a positive number');
    this.#maxSleepMs = maxSleepMs;
  }

  /** Timers scheduled now. */
  get size(): number {
    return this.#size;
  }

  /**
   * Schedules `timer` to fire `delayMs` from now (rescheduling it when it already is). `laneMs`
   * is the nominal duration it shares a lane with (default `delayMs`): a deadline computed from an
   * earlier moment (a lease's expiry) names its full duration so its lane stays in order.
   */
  schedule<T>(timer: WheelTimer<T>, delayMs: number, laneMs: number = delayMs): void {
    if (timer.lane !== undefined) this.#unlink(timer as WheelTimer);
    const deadline = this.#now() + Math.max(0, delayMs);
    timer.deadline = deadline;
    this.#seq += 1;
    timer.seq = this.#seq;
    let lane = this.#lanes.get(laneMs);
    if (lane === undefined) {
      lane = new Lane();
      this.#lanes.set(laneMs, lane);
    }
    this.#insert(lane, timer as WheelTimer);
    this.#size += 1;
    if (deadline < this.#armedFor) this.#arm(deadline);
  }

  /** Cancels `timer`; a no-op when it is not scheduled. */
  cancel<T>(timer: WheelTimer<T> | undefined): void {
    if (timer?.lane === undefined) return;
    this.#unlink(timer as WheelTimer);
    if (this.#size === 0) this.#disarm();
  }

  #insert(lane: Lane, timer: WheelTimer): void {
    let after = lane.tail;
    while (after !== undefined && after.deadline > timer.deadline) after = after.prev;
    timer.lane = lane;
    timer.prev = after;
    timer.next = after === undefined ? lane.head : after.next;
    if (timer.next === undefined) lane.tail = timer;
    else timer.next.prev = timer;
    if (after === undefined) lane.head = timer;
    else after.next = timer;
  }

  #unlink(timer: WheelTimer): void {
    const lane = timer.lane as Lane;
    if (timer.prev === undefined) lane.head = timer.next;
    else timer.prev.next = timer.next;
    if (timer.next === undefined) lane.tail = timer.prev;
    else timer.next.prev = timer.prev;
    timer.prev = undefined;
    timer.next = undefined;
    timer.lane = undefined;
    this.#size -= 1;
  }

  /**
   * `Date.now()` on the wheel's clock (ms since it was built), as an int32 while it fits (24 days):
   * a difference of two epoch-ms numbers is a heap number of its own unless narrowed.
   */
  #now(): number {
    const ms = Date.now() - this.#origin;
    return ms < INT32_LIMIT && ms > -INT32_LIMIT ? ms | 0 : ms;
  }

  /** The lane head due first (earliest deadline, then earliest scheduled). */
  #earliest(): WheelTimer | undefined {
    let first: WheelTimer | undefined;
    for (const lane of this.#lanes.values()) {
      const head = lane.head;
      if (head === undefined) continue;
      if (
        first === undefined ||
        head.deadline < first.deadline ||
        (head.deadline === first.deadline && head.seq < first.seq)
      ) {
        first = head;
      }
    }
    return first;
  }

  #arm(deadline: number): void {
    this.#disarm();
    const now = this.#now();
    const wakeAt = Math.min(deadline, now + this.#maxSleepMs);
    this.#armedFor = wakeAt;
    this.#clear = clearTimeout;
    this.#handle = setTimeout(this.#fire, Math.max(0, wakeAt - now));
    if (!this.#keepAlive) this.#handle.unref?.();
  }

  #disarm(): void {
    if (this.#handle !== undefined) this.#clear?.(this.#handle);
    this.#handle = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  /** The armed timeout: fires every due timer, then arms for the next deadline. */
  #onTimeout(): void {
    this.#handle = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = this.#now();
    // Timers scheduled by the callbacks of this pass fire on a later timeout, like `setTimeout`'s.
    const last = this.#seq;
    let failure: { error: unknown } | undefined;
    for (;;) {
      const due = this.#earliest();
      if (due === undefined || due.deadline > now || due.seq > last) break;
      this.#unlink(due);
      try {
        due.callback(due.target);
      } catch (error) {
        // Like a throwing `setTimeout` callback, but the other due timers still fire first.
        failure ??= { error };
      }
    }
    const next = this.#earliest();
    if (next !== undefined && next.deadline < this.#armedFor) this.#arm(next.deadline);
    if (this.#size === 0) this.#lanes.clear();
    if (failure !== undefined) throw failure.error;
  }
}
