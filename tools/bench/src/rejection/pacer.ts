/**
 * The open-loop load generator's clock: calls `onDue(n, dueAt)` for each of `count` deliveries
 * once it is due (delivery `n` at `startedAt + n * 1000 / rate` on `clock.ts`'s `nowMs`), in order,
 * never before. Node's own timers fire on whole milliseconds (a 1 ms `setTimeout` is 1 to 2 ms
 * late, and at 5,000/s sends bursts of 5 to 10 at once), and a `setImmediate` loop would spin a
 * core; so a worker thread sleeps until the next due time (at least `MIN_TICK_MS` after its last
 * wake-up) in `Atomics.wait` (a futex: the thread sleeps, no spin) and then wakes this thread with
 * a message, which sends every delivery due by then. Both threads read the same clock
 * (`nowMs`, the monotonic clock).
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { nowMs } from './clock.js';

/**
 * The least time between two wake-ups, ms. A wake-up costs both threads about 40 to 60 us of CPU
 * (measured on this machine, mostly the kernel's), so one per delivery at 5,000/s would take a
 * fifth of a core from the servers; with this floor a delivery is at most this late by design
 * (at 5,000/s, up to 3 sent together, about 0.2 ms of a server's work), at 2,000 wake-ups a second.
 */
export const MIN_TICK_MS = 0.5;

/** The ticker thread: its first message is `{ firstDueAt, intervalMs, count, minTickMs }`. */
const TICKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const clock = () => Number(process.hrtime.bigint()) / 1e6;
parentPort.once('message', ({ firstDueAt, intervalMs, count, minTickMs }) => {
  let n = 0;
  let woke = -Infinity;
  while (n < count) {
    const wait = Math.max(firstDueAt + n * intervalMs, woke + minTickMs) - clock();
    if (wait > 0) Atomics.wait(sleeper, 0, 0, wait);
    const now = clock();
    let due = n;
    while (due < count && firstDueAt + due * intervalMs <= now) due += 1;
    if (due === n) continue;
    woke = now;
    n = due;
    parentPort.postMessage(n);
  }
  parentPort.on('message', () => {}); // stays (its messages delivered) until terminated
});
`;

/** Paces `count` deliveries at `rate` per second; `open`, then `start`. */
export class Pacer {
  readonly #intervalMs: number;
  readonly #worker: Worker;
  #startedAt = 0;
  #next = 0;
  #done = false;
  readonly #finished: Promise<void>;
  #finish: () => void = () => {};

  /** A pacer whose ticker thread is running (started before the clock, so it costs no delivery). */
  static async open(
    rate: number,
    count: number,
    onDue: (n: number, dueAt: number) => void,
  ): Promise<Pacer> {
    const pacer = new Pacer(rate, count, onDue);
    await once(pacer.#worker, 'online');
    return pacer;
  }

  private constructor(
    rate: number,
    readonly count: number,
    readonly onDue: (n: number, dueAt: number) => void,
  ) {
    this.#intervalMs = 1000 / rate;
    this.#finished = new Promise((resolve) => {
      this.#finish = resolve;
    });
    this.#worker = new Worker(TICKER_SOURCE, { eval: true, execArgv: [] });
    this.#worker.on('message', () => this.#pump());
    this.#worker.on('error', (error) => {
      throw error;
    });
  }

  /** Starts the clock: delivery 0 is due now. Returns the start, on `nowMs`. */
  start(): number {
    this.#startedAt = nowMs();
    this.#worker.postMessage({
      firstDueAt: this.#startedAt,
      intervalMs: this.#intervalMs,
      count: this.count,
      minTickMs: MIN_TICK_MS,
    });
    if (this.count === 0) this.#end();
    return this.#startedAt;
  }

  /** Resolves once every delivery has been handed to `onDue`. */
  get finished(): Promise<void> {
    return this.#finished;
  }

  /** Hands every delivery due by now to `onDue`. */
  #pump(): void {
    const now = nowMs();
    for (let due = this.#dueAt(this.#next); this.#next < this.count && due <= now; ) {
      this.onDue(this.#next, due);
      this.#next += 1;
      due = this.#dueAt(this.#next);
    }
    if (this.#next === this.count) this.#end();
  }

  #dueAt(n: number): number {
    return this.#startedAt + n * this.#intervalMs;
  }

  #end(): void {
    if (this.#done) return;
    this.#done = true;
    void this.#worker.terminate();
    this.#finish();
  }
}
